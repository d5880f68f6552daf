using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Contract;

/// <summary>The item-locations API contract, run unchanged on every item architecture.</summary>
public abstract class ItemApiContract(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    protected abstract string Storage { get; }

    private HttpClient Client => service.Client;

    private string Url(long itemId) => $"/item/{itemId}/locations?storage={Storage}";

    private async Task<HttpResponseMessage> WriteAsync(long itemId, params long[] locationIds) =>
        await Client.PostAsJsonAsync(Url(itemId), new { LocationIds = locationIds });

    private async Task<JsonElement[]> ReadAsync(long itemId)
    {
        var response = await Client.GetAsync(Url(itemId));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return (await response.Content.ReadFromJsonAsync<JsonElement[]>())!;
    }

    private async Task<long[]> ReadIdsAsync(long itemId) =>
        (await ReadAsync(itemId)).Select(l => l.GetProperty("ID").GetInt64()).ToArray();

    [Fact]
    public async Task AnItemNeverWrittenReadsAsEmpty() => Assert.Empty(await ReadAsync(Ids.NewItemId()));

    [Fact]
    public async Task WriteAnswersOkOneAndReadsBackInIdOrderWithTheGoFieldNames()
    {
        var item = Ids.NewItemId();
        var write = await WriteAsync(item, 154, 1546, 556, 7);
        Assert.Equal(HttpStatusCode.OK, write.StatusCode);
        Assert.Equal("""{"ok":1}""", await write.Content.ReadAsStringAsync());

        var locations = await ReadAsync(item);
        Assert.Equal([7L, 154, 556, 1546], locations.Select(l => l.GetProperty("ID").GetInt64()));
        foreach (var location in locations)
        {
            var text = location.GetProperty("Location").GetString()!;
            Assert.StartsWith($"location {location.GetProperty("ID").GetInt64()}", text);
            Assert.InRange(text.Length, 50, 800);
            Assert.InRange(location.GetProperty("Coordinates").GetProperty("X").GetDouble(), -180, 180);
            Assert.InRange(location.GetProperty("Coordinates").GetProperty("Y").GetDouble(), -90, 90);
        }
    }

    [Fact]
    public async Task TheSameSetReadsByteForByteAsOnPostgres()
    {
        // Every backend holds the same generated locations; the answer must not depend on the storage.
        var mine = Ids.NewItemId();
        var reference = Ids.NewItemId();
        await WriteAsync(mine, 11, 12, 1999);
        await Client.PostAsJsonAsync($"/item/{reference}/locations?storage=postgres", new { LocationIds = new[] { 11, 12, 1999 } });
        Assert.Equal(await Client.GetStringAsync($"/item/{reference}/locations?storage=postgres"), await Client.GetStringAsync(Url(mine)));
    }

    [Fact]
    public async Task AWriteReplacesTheWholeSet()
    {
        var item = Ids.NewItemId();
        await WriteAsync(item, 1, 2, 3);
        await WriteAsync(item, 3, 4);
        Assert.Equal(new long[] { 3L, 4 }, await ReadIdsAsync(item));
    }

    [Fact]
    public async Task AnEmptyListClearsTheSet()
    {
        var item = Ids.NewItemId();
        await WriteAsync(item, 5, 6);
        Assert.Equal(HttpStatusCode.OK, (await WriteAsync(item)).StatusCode);
        Assert.Empty(await ReadAsync(item));
    }

    [Fact]
    public async Task DuplicateIdsInAWriteCountOnce()
    {
        var item = Ids.NewItemId();
        Assert.Equal(HttpStatusCode.OK, (await WriteAsync(item, 9, 9, 8)).StatusCode);
        Assert.Equal(new long[] { 8L, 9 }, await ReadIdsAsync(item));
    }

    [Fact]
    public async Task ReadAfterWriteAfterReadSeesTheNewSet()
    {
        var item = Ids.NewItemId();
        await WriteAsync(item, 21, 22);
        Assert.Equal(new long[] { 21L, 22 }, await ReadIdsAsync(item)); // may fill a cache
        await WriteAsync(item, 23);
        Assert.Equal(new long[] { 23L }, await ReadIdsAsync(item));
        await WriteAsync(item);
        Assert.Empty(await ReadIdsAsync(item));
    }

    [Fact]
    public async Task UnknownLocationIdsAreABadRequestNamingThemAndWriteNothing()
    {
        var item = Ids.NewItemId();
        await WriteAsync(item, 31, 32);
        var response = await WriteAsync(item, 33, 900_000_001, 900_000_002);
        var body = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("900000001", body);
        Assert.Contains("900000002", body);
        Assert.DoesNotContain("33,", body);
        Assert.Equal(new long[] { 31L, 32 }, await ReadIdsAsync(item));
    }

    [Theory]
    [InlineData("abc")]
    [InlineData("0")]
    [InlineData("-3")]
    [InlineData("1.5")]
    public async Task NonPositiveOrNonNumericItemIdsAreBadRequests(string id)
    {
        var read = await Client.GetAsync($"/item/{id}/locations?storage={Storage}");
        Assert.Equal(HttpStatusCode.BadRequest, read.StatusCode);
        Assert.Contains("\"id\"", await read.Content.ReadAsStringAsync());
        var write = await Client.PostAsJsonAsync($"/item/{id}/locations?storage={Storage}", new { LocationIds = new[] { 1 } });
        Assert.Equal(HttpStatusCode.BadRequest, write.StatusCode);
    }

    [Theory]
    [InlineData("""{"LocationIds":[1,""", "$")]
    [InlineData("""{}""", "LocationIds")]
    [InlineData("""{"LocationIds":[1,-2]}""", "LocationIds")]
    [InlineData("""{"LocationIds":["x"]}""", "LocationIds")]
    [InlineData("""{"LocationIds":5}""", "LocationIds")]
    public async Task InvalidBodiesAreBadRequestsNamingTheField(string body, string field)
    {
        var response = await Client.PostAsync(Url(Ids.NewItemId()), new StringContent(body, Encoding.UTF8, "application/json"));
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"expected 400, got {(int)response.StatusCode}: {text}");
        Assert.Matches($"\"(\\$\\.)?{System.Text.RegularExpressions.Regex.Escape(field)}", text);
    }

    [Fact]
    public async Task ConcurrentWritersToOneItemNeverFailAndOneWholeSetWins()
    {
        var item = Ids.NewItemId();
        var sets = Enumerable.Range(0, 24).Select(w => Enumerable.Range(1, 1 + w % 6).Select(k => (long)(w * 10 + k)).ToArray()).ToArray();
        var responses = await Task.WhenAll(sets.Select(set => WriteAsync(item, set)));
        Assert.All(responses, r => Assert.Equal(HttpStatusCode.OK, r.StatusCode));

        var final = await ReadIdsAsync(item);
        Assert.Contains(sets, set => set.SequenceEqual(final));
    }
}
