using System.Net;
using System.Net.Http.Json;
using System.Text;
using IntegrationService.Authors;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Contract;

/// <summary>
/// The Author API contract. Written once; every architecture runs it through a tiny sealed
/// subclass that names its storage, so they are held to exactly the same behaviour.
/// </summary>
public abstract class AuthorApiContract(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    protected abstract string Storage { get; }

    private HttpClient Client => service.Client;

    private string Url(string action, string query = "") => $"/Author/{action}?storage={Storage}{query}";

    private static Author NewAuthor(string suffix = "") => new()
    {
        Name = "alexander" + suffix,
        FamilyName = "pushkin",
        MiddleName = "sergeevich",
        Age = 20,
        BirthCountry = "russia",
        BirthCity = "moscow",
        BooksCount = 10,
        Nationality = "russian",
        BirthDateTime = new DateTime(2020, 5, 24, 13, 9, 57, 635, DateTimeKind.Utc).AddTicks(1230),
    };

    private async Task<Author> CreateAsync(Author author)
    {
        var response = await Client.PostAsJsonAsync(Url("Save"), author, ServiceFixture.Json);
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return await service.ReadAsync<Author>(response);
    }

    [Fact]
    public async Task CreateGetUpdateDeleteRoundTripsEveryField()
    {
        var original = NewAuthor();
        var created = await CreateAsync(original);
        Assert.True(created.Id > 0);
        Assert.Equal(original with { Id = created.Id }, created);

        var fetched = await service.ReadAsync<Author>(await Client.GetAsync(Url("Get", $"&id={created.Id}")));
        Assert.Equal(created, fetched);
        Assert.Equal(DateTimeKind.Utc, fetched.BirthDateTime!.Value.Kind);

        var changed = created with { Name = "fyodor", FamilyName = "dostoevsky", MiddleName = null, Age = 255, BooksCount = 0, BirthDateTime = null };
        var update = await Client.PostAsJsonAsync(Url("Update"), changed, ServiceFixture.Json);
        Assert.Equal(HttpStatusCode.OK, update.StatusCode);
        Assert.Equal(changed, await service.ReadAsync<Author>(update));
        Assert.Equal(changed, await service.ReadAsync<Author>(await Client.GetAsync(Url("Get", $"&id={created.Id}"))));

        Assert.Equal(HttpStatusCode.OK, (await Client.PostAsync(Url("Delete", $"&id={created.Id}"), null)).StatusCode);
        var gone = await Client.GetAsync(Url("Get", $"&id={created.Id}"));
        Assert.Equal(HttpStatusCode.NotFound, gone.StatusCode);
        Assert.Equal("application/problem+json", gone.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task SaveAnswersWithLocationOfTheNewAuthor()
    {
        var response = await Client.PostAsJsonAsync(Url("Save"), NewAuthor(), ServiceFixture.Json);
        var created = await service.ReadAsync<Author>(response);
        Assert.NotNull(response.Headers.Location);
        Assert.Contains($"id={created.Id}", response.Headers.Location!.ToString());
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync(response.Headers.Location)).StatusCode);
    }

    [Fact]
    public async Task SaveIgnoresTheIdInTheBody()
    {
        var created = await CreateAsync(NewAuthor() with { Id = 424242424242 });
        Assert.NotEqual(424242424242, created.Id);
    }

    [Fact]
    public async Task DateWithOffsetIsStoredAsUtc()
    {
        var body = """{"name":"a","familyName":"b","age":1,"booksCount":2,"birthDateTime":"2020-05-24T16:09:57.635+03:00"}""";
        var response = await Client.PostAsync(Url("Save"), new StringContent(body, Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Contains("\"birthDateTime\":\"2020-05-24T13:09:57.635Z\"", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task GetAllPagesInIdOrder()
    {
        var mine = new List<long>();
        for (var i = 0; i < 5; i++) mine.Add((await CreateAsync(NewAuthor($"-page{i}"))).Id);

        var all = new List<Author>();
        for (var offset = 0; ; offset += 1000)
        {
            var page = await service.ReadAsync<List<Author>>(await Client.GetAsync(Url("GetAll", $"&offset={offset}&limit=1000")));
            Assert.True(page.Count <= 1000);
            all.AddRange(page);
            if (page.Count < 1000) break;
        }
        var ids = all.Select(a => a.Id).ToList();
        Assert.Equal(ids.Order(), ids);
        Assert.Equal(ids.Count, ids.Distinct().Count());
        Assert.All(mine, id => Assert.Contains(id, ids));

        // A small page is exactly the matching slice of the whole list.
        var index = ids.IndexOf(mine[1]);
        var slice = await service.ReadAsync<List<Author>>(await Client.GetAsync(Url("GetAll", $"&offset={index}&limit=3")));
        Assert.Equal(ids.Skip(index).Take(3), slice.Select(a => a.Id));
    }

    public static TheoryData<string, string> InvalidBodies => new()
    {
        { """{"name":"a","familyName":""", "$" },
        { """{"familyName":"pushkin","age":1}""", "name" },
        { """{"name":"a","familyName":"b","age":300}""", "age" },
        { """{"name":"a","familyName":"b","booksCount":-1}""", "booksCount" },
        { $$"""{"name":"{{new string('x', 257)}}","familyName":"b"}""", "name" },
        { """{"name":"a","familyName":"b","age":"old"}""", "age" },
        { """{"name":"a","familyName":"b","birthDateTime":"yesterday"}""", "birthDateTime" },
    };

    [Theory]
    [MemberData(nameof(InvalidBodies))]
    public async Task SaveRejectsInvalidBodiesNamingTheField(string body, string field)
    {
        var response = await Client.PostAsync(Url("Save"), new StringContent(body, Encoding.UTF8, "application/json"));
        await AssertBadRequestNamingAsync(response, field);
    }

    [Theory]
    [InlineData("Get", "&id=abc", "id")]
    [InlineData("Get", "&id=0", "id")]
    [InlineData("Get", "&id=-5", "id")]
    [InlineData("Get", "", "id")]
    [InlineData("GetAll", "&limit=0", "limit")]
    [InlineData("GetAll", "&limit=1001", "limit")]
    [InlineData("GetAll", "&offset=-1", "offset")]
    public async Task ReadsRejectInvalidQueriesNamingTheField(string action, string query, string field) =>
        await AssertBadRequestNamingAsync(await Client.GetAsync(Url(action, query)), field);

    [Fact]
    public async Task DeleteRejectsNonNumericId() =>
        await AssertBadRequestNamingAsync(await Client.PostAsync(Url("Delete", "&id=abc"), null), "id");

    [Fact]
    public async Task UpdateRequiresAPositiveId()
    {
        var response = await Client.PostAsJsonAsync(Url("Update"), NewAuthor(), ServiceFixture.Json);
        await AssertBadRequestNamingAsync(response, "id");
    }

    [Fact]
    public async Task UnknownStorageIsABadRequestListingTheValidNames()
    {
        var response = await Client.GetAsync("/Author/Get?id=1&storage=no-such-storage");
        var body = await AssertBadRequestNamingAsync(response, "storage");
        Assert.Contains(Storage, body);
    }

    [Fact]
    public async Task MissingIdsAre404()
    {
        var created = await CreateAsync(NewAuthor());
        Assert.Equal(HttpStatusCode.OK, (await Client.PostAsync(Url("Delete", $"&id={created.Id}"), null)).StatusCode);

        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync(Url("Get", $"&id={created.Id}"))).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await Client.PostAsync(Url("Delete", $"&id={created.Id}"), null)).StatusCode);
        var update = await Client.PostAsJsonAsync(Url("Update"), created, ServiceFixture.Json);
        Assert.Equal(HttpStatusCode.NotFound, update.StatusCode);
        Assert.Equal("application/problem+json", update.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task FiftyParallelCreatesGetDistinctIdsAndAllReadBack()
    {
        var created = await Task.WhenAll(Enumerable.Range(0, 50).Select(i => CreateAsync(NewAuthor($"-parallel{i}"))));
        Assert.Equal(50, created.Select(a => a.Id).Distinct().Count());
        var fetched = await Task.WhenAll(created.Select(a => Client.GetFromJsonAsync<Author>(Url("Get", $"&id={a.Id}"), ServiceFixture.Json)));
        Assert.Equal(created.OrderBy(a => a.Id), fetched.OrderBy(a => a!.Id));
    }

    [Fact]
    public async Task ConcurrentDeletesOfOneAuthorHaveOneWinnerAndNoErrors()
    {
        var created = await CreateAsync(NewAuthor("-race"));
        var updates = Enumerable.Range(0, 10).Select(i => Client.PostAsJsonAsync(Url("Update"), created with { Age = i }, ServiceFixture.Json));
        var deletes = Enumerable.Range(0, 20).Select(_ => Client.PostAsync(Url("Delete", $"&id={created.Id}"), null));
        var responses = await Task.WhenAll(deletes.Concat(updates));

        var deleteCodes = responses.Take(20).Select(r => r.StatusCode).ToList();
        Assert.Equal(1, deleteCodes.Count(c => c == HttpStatusCode.OK));
        Assert.Equal(19, deleteCodes.Count(c => c == HttpStatusCode.NotFound));
        Assert.All(responses.Skip(20), r => Assert.Contains(r.StatusCode, new[] { HttpStatusCode.OK, HttpStatusCode.NotFound }));
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync(Url("Get", $"&id={created.Id}"))).StatusCode);
    }

    private static async Task<string> AssertBadRequestNamingAsync(HttpResponseMessage response, string field)
    {
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"expected 400, got {(int)response.StatusCode}: {body}");
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Matches($"\"(\\$\\.)?{System.Text.RegularExpressions.Regex.Escape(field)}", body);
        return body;
    }
}
