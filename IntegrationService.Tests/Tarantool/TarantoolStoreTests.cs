using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Storage.Tarantool;

namespace IntegrationService.Tests.Tarantool;

/// <summary>The stores against the real server, once per engine. Each test makes its own ids.</summary>
public sealed class TarantoolStoreTests : IAsyncLifetime
{
    private TarantoolConnection _connection = null!;

    public static TheoryData<string> Engines => ["memtx", "vinyl"];

    public async Task InitializeAsync() => _connection = await TarantoolServer.ConnectAsync();

    public async Task DisposeAsync() => await _connection.DisposeAsync();

    [Theory, MemberData(nameof(Engines))]
    public async Task AuthorCrudRoundTrips(string engine)
    {
        var store = new TarantoolAuthorStore(_connection, engine);
        var author = new Author
        {
            Name = "alexander", FamilyName = "pushkin", MiddleName = "sergeevich", Age = 20, BirthCountry = "russia",
            BirthCity = "moscow", BooksCount = 10, Nationality = "russian",
            BirthDateTime = new DateTime(2020, 5, 24, 13, 9, 57, 635, DateTimeKind.Utc),
        };

        var created = await store.CreateAsync(author, CancellationToken.None);
        Assert.True(created.Id > 0);
        Assert.Equal(author with { Id = created.Id }, created);
        Assert.Equal(created, await store.GetAsync(created.Id, CancellationToken.None));

        var changed = created with { Name = "fyodor", MiddleName = null, Age = 255, BirthDateTime = null };
        Assert.Equal(changed, await store.UpdateAsync(changed, CancellationToken.None));
        Assert.Equal(changed, await store.GetAsync(created.Id, CancellationToken.None));

        Assert.True(await store.DeleteAsync(created.Id, CancellationToken.None));
        Assert.Null(await store.GetAsync(created.Id, CancellationToken.None));
        Assert.False(await store.DeleteAsync(created.Id, CancellationToken.None));
        Assert.Null(await store.UpdateAsync(changed, CancellationToken.None));
    }

    [Theory, MemberData(nameof(Engines))]
    public async Task AuthorPagesAreOrderedById(string engine)
    {
        var store = new TarantoolAuthorStore(_connection, engine);
        var created = new List<long>();
        for (var i = 0; i < 5; i++)
        {
            created.Add((await store.CreateAsync(new Author { Name = $"n{i}", FamilyName = "f" }, CancellationToken.None)).Id);
        }

        // The test instance keeps every earlier run's authors: walk the pages to the end, where the new ones are.
        var ids = new List<long>();
        for (var offset = 0; ; offset += 1000)
        {
            var page = await store.GetPageAsync(offset, 1000, CancellationToken.None);
            ids.AddRange(page.Select(a => a.Id));
            if (page.Count < 1000) break;
        }
        Assert.Equal(ids.Order(), ids);
        Assert.Equal(ids.Distinct().Count(), ids.Count);
        Assert.Subset(ids.ToHashSet(), created.ToHashSet());

        var index = ids.IndexOf(created[1]);
        var two = await store.GetPageAsync(index, 2, CancellationToken.None);
        Assert.Equal(ids.Skip(index).Take(2), two.Select(a => a.Id));
    }

    [Theory, MemberData(nameof(Engines))]
    public async Task ItemLocationsReplaceWholeSetsAndReadOrderedById(string engine)
    {
        var (itemId, locationIds) = await CreateLocationsAsync(engine, 3);
        var store = new TarantoolItemStore(_connection, engine);

        Assert.Empty(await store.GetLocationsAsync(itemId, CancellationToken.None));

        await store.ReplaceLocationsAsync(itemId, [locationIds[2], locationIds[0]], CancellationToken.None);
        var read = await store.GetLocationsAsync(itemId, CancellationToken.None);
        Assert.Equal([locationIds[0], locationIds[2]], read.Select(l => l.Id));
        Assert.Equal(new Coordinates(1.5, -2.25), read[0].Coordinates);
        Assert.Equal($"location {locationIds[0]}", read[0].Text);

        await store.ReplaceLocationsAsync(itemId, [locationIds[1]], CancellationToken.None);
        Assert.Equal([locationIds[1]], (await store.GetLocationsAsync(itemId, CancellationToken.None)).Select(l => l.Id));

        await store.ReplaceLocationsAsync(itemId, [], CancellationToken.None);
        Assert.Empty(await store.GetLocationsAsync(itemId, CancellationToken.None));
    }

    [Theory, MemberData(nameof(Engines))]
    public async Task UnknownLocationIdsAreNamedAndNothingIsWritten(string engine)
    {
        var (itemId, locationIds) = await CreateLocationsAsync(engine, 1);
        var store = new TarantoolItemStore(_connection, engine);
        await store.ReplaceLocationsAsync(itemId, locationIds, CancellationToken.None);
        long[] unknown = [long.MaxValue - 1, long.MaxValue - 2];

        var error = await Assert.ThrowsAsync<UnknownLocationsException>(() =>
            store.ReplaceLocationsAsync(itemId, [locationIds[0], .. unknown], CancellationToken.None));

        Assert.Equal(unknown, error.LocationIds);
        Assert.Equal(locationIds, (await store.GetLocationsAsync(itemId, CancellationToken.None)).Select(l => l.Id));
    }

    [Fact]
    public async Task LoaderWritesLocationsAndItemsIntoBothEngines()
    {
        var baseId = Random.Shared.NextInt64(3_000_000_000, 4_000_000_000);
        var locations = Enumerable.Range(0, 2500)
            .Select(i => new Location(baseId + i, $"location {baseId + i}", new Coordinates(i % 180, -(i % 90))))
            .ToList();
        var items = Enumerable.Range(0, 2500)
            .Select(i => new ItemLinks(baseId + i, i % 3 == 0 ? [] : [baseId + (i + 7) % 2500, baseId + i]))
            .ToList();
        var loader = new TarantoolItemDataLoader(_connection);

        await loader.LoadAsync(new ItemDataSet(locations, items), CancellationToken.None);
        await loader.LoadAsync(new ItemDataSet(locations, items), CancellationToken.None); // idempotent

        foreach (var engine in new[] { "memtx", "vinyl" })
        {
            var store = new TarantoolItemStore(_connection, engine);
            Assert.Empty(await store.GetLocationsAsync(baseId + 3, CancellationToken.None));
            var read = await store.GetLocationsAsync(baseId + 2494, CancellationToken.None);
            Assert.Equal([baseId + 1, baseId + 2494], read.Select(l => l.Id));
            Assert.Equal(locations[1], read[0]);
        }
    }

    /// <summary>Fresh locations with random ids far above the data set's, and a fresh item id.</summary>
    private async Task<(long ItemId, long[] LocationIds)> CreateLocationsAsync(string engine, int count)
    {
        var baseId = Random.Shared.NextInt64(1_000_000_000, 2_000_000_000);
        var ids = Enumerable.Range(0, count).Select(i => baseId + i).ToArray();
        var locations = ids.Select(id => new Location(id, $"location {id}", new Coordinates(1.5, -2.25))).ToList();
        await new TarantoolItemDataLoader(_connection).LoadAsync(new ItemDataSet(locations, []), CancellationToken.None);
        return (baseId, ids);
    }
}
