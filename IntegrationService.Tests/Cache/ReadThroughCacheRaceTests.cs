using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Storage.Postgres;
using IntegrationService.Storage.Redis;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Cache;

/// <summary>
/// The read-through cache never keeps a value older than a write that completed before the read
/// began. The race is made deterministic: a reader misses, reads the old row from PostgreSQL and
/// is held before it fills the cache; a write then commits and invalidates; then the reader goes
/// on. Filling the key with what it read would leave the old value cached for the whole TTL.
/// Real PostgreSQL and Redis (the tests' instances); only the hold is added around the store.
/// </summary>
public sealed class ReadThroughCacheRaceTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private readonly CancellationToken _timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30)).Token;

    private RedisCache Cache => service.Services.GetRequiredService<RedisCache>();

    [Fact]
    public async Task AnAuthorUpdatedWhileAMissIsInFlightIsNotCachedStale()
    {
        var postgres = service.Services.GetRequiredService<PostgresAuthorStore>();
        var held = new HeldAuthorStore(postgres);
        var store = new CachedAuthorStore(held, Cache);
        var created = await postgres.CreateAsync(new Author { Name = "before", FamilyName = "race" }, _timeout);

        var racingRead = store.GetAsync(created.Id, _timeout);
        Assert.Equal("before", (await held.FirstReadDone.WaitAsync(_timeout))!.Name);
        await store.UpdateAsync(created with { Name = "after" }, _timeout);
        held.Release();
        Assert.Equal("before", (await racingRead)!.Name); // it began before the write completed

        Assert.Equal("after", (await store.GetAsync(created.Id, _timeout))!.Name);

        // The cache does fill when no write intervenes: a change made behind its back is not seen.
        await postgres.UpdateAsync(created with { Name = "behind the cache" }, _timeout);
        Assert.Equal("after", (await store.GetAsync(created.Id, _timeout))!.Name);
        await store.DeleteAsync(created.Id, _timeout);
    }

    [Fact]
    public async Task ItemLocationsReplacedWhileAMissIsInFlightAreNotCachedStale()
    {
        var postgres = service.Services.GetRequiredService<PostgresItemStore>();
        var held = new HeldItemStore(postgres);
        var store = new CachedItemStore(held, Cache);
        var item = Ids.NewItemId();
        await postgres.ReplaceLocationsAsync(item, [1, 2], _timeout);

        var racingRead = store.GetLocationsAsync(item, _timeout);
        Assert.Equal([1L, 2], (await held.FirstReadDone.WaitAsync(_timeout)).Select(l => l.Id));
        await store.ReplaceLocationsAsync(item, [3], _timeout);
        held.Release();
        Assert.Equal([1L, 2], (await racingRead).Select(l => l.Id));

        Assert.Equal([3L], (await store.GetLocationsAsync(item, _timeout)).Select(l => l.Id));

        await postgres.ReplaceLocationsAsync(item, [4], _timeout);
        Assert.Equal([3L], (await store.GetLocationsAsync(item, _timeout)).Select(l => l.Id));
        await store.ReplaceLocationsAsync(item, [], _timeout);
    }

    /// <summary>Holds the first read, after the store answered, until <see cref="Release"/>; everything else passes through.</summary>
    private sealed class HeldAuthorStore(IAuthorStore inner) : IAuthorStore
    {
        private readonly TaskCompletionSource<Author?> _firstReadDone = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _release = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _reads;

        public Task<Author?> FirstReadDone => _firstReadDone.Task;

        public void Release() => _release.SetResult();

        public async Task<Author?> GetAsync(long id, CancellationToken cancellationToken)
        {
            var author = await inner.GetAsync(id, cancellationToken);
            if (Interlocked.Increment(ref _reads) == 1)
            {
                _firstReadDone.SetResult(author);
                await _release.Task.WaitAsync(cancellationToken);
            }
            return author;
        }

        public Task<Author> CreateAsync(Author author, CancellationToken cancellationToken) => inner.CreateAsync(author, cancellationToken);

        public Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken) =>
            inner.GetPageAsync(offset, limit, cancellationToken);

        public Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken) => inner.UpdateAsync(author, cancellationToken);

        public Task<bool> DeleteAsync(long id, CancellationToken cancellationToken) => inner.DeleteAsync(id, cancellationToken);
    }

    /// <summary>The same hold for item reads.</summary>
    private sealed class HeldItemStore(IItemStore inner) : IItemStore
    {
        private readonly TaskCompletionSource<IReadOnlyList<Location>> _firstReadDone = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _release = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _reads;

        public Task<IReadOnlyList<Location>> FirstReadDone => _firstReadDone.Task;

        public void Release() => _release.SetResult();

        public async Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken)
        {
            var locations = await inner.GetLocationsAsync(itemId, cancellationToken);
            if (Interlocked.Increment(ref _reads) == 1)
            {
                _firstReadDone.SetResult(locations);
                await _release.Task.WaitAsync(cancellationToken);
            }
            return locations;
        }

        public Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken) =>
            inner.ReplaceLocationsAsync(itemId, locationIds, cancellationToken);
    }
}
