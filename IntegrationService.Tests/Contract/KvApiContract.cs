using System.Net;
using System.Net.Http.Headers;
using IntegrationService.Kv;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Contract;

/// <summary>
/// The key-value API contract (<c>/v0/entity</c>), written once; every key-value architecture runs it
/// through a sealed subclass naming its storage (<see cref="KvApis"/>).
/// </summary>
public abstract class KvApiContract(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    protected abstract string Storage { get; }

    protected HttpClient Client => service.Client;

    /// <summary>A key no other test run uses.</summary>
    protected static string NewKey(string name = "key") => $"{name}-{Guid.NewGuid():N}";

    protected string Url(string key) => $"/v0/entity?id={Uri.EscapeDataString(key)}&storage={Storage}";

    protected static ByteArrayContent Bytes(byte[] value)
    {
        var content = new ByteArrayContent(value);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
        return content;
    }

    private async Task PutAsync(string key, byte[] value) =>
        Assert.Equal(HttpStatusCode.Created, (await Client.PutAsync(Url(key), Bytes(value))).StatusCode);

    private async Task<byte[]> GetAsync(string key)
    {
        var response = await Client.GetAsync(Url(key));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/octet-stream", response.Content.Headers.ContentType?.MediaType);
        return await response.Content.ReadAsByteArrayAsync();
    }

    private async Task AssertAbsentAsync(string key)
    {
        var response = await Client.GetAsync(Url(key));
        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task PutGetOverwriteDeleteRoundTrips()
    {
        var key = NewKey();
        await PutAsync(key, "value1"u8.ToArray());
        Assert.Equal("value1"u8.ToArray(), await GetAsync(key));

        await PutAsync(key, "a longer second value"u8.ToArray());
        Assert.Equal("a longer second value"u8.ToArray(), await GetAsync(key));

        Assert.Equal(HttpStatusCode.Accepted, (await Client.DeleteAsync(Url(key))).StatusCode);
        await AssertAbsentAsync(key);
    }

    [Fact]
    public async Task AKeyNeverPutIsNotFound() => await AssertAbsentAsync(NewKey());

    [Fact]
    public async Task DeletingAnAbsentKeyIsAccepted()
    {
        var key = NewKey();
        Assert.Equal(HttpStatusCode.Accepted, (await Client.DeleteAsync(Url(key))).StatusCode);
        Assert.Equal(HttpStatusCode.Accepted, (await Client.DeleteAsync(Url(key))).StatusCode);
        await AssertAbsentAsync(key);
    }

    [Fact]
    public async Task EveryByteValueRoundTripsExactly()
    {
        var value = new byte[512];
        for (var i = 0; i < value.Length; i++) value[i] = (byte)(i % 256);
        value[0] = 0;
        value[^1] = 0;
        var key = NewKey();
        await PutAsync(key, value);
        Assert.Equal(value, await GetAsync(key));
    }

    [Fact]
    public async Task AnEmptyValueIsAValue()
    {
        var key = NewKey();
        await PutAsync(key, []);
        Assert.Empty(await GetAsync(key));
    }

    [Fact]
    public async Task KeysAreExactStrings()
    {
        var key = NewKey("ключ with spaces/and?query&chars=");
        var other = key.ToUpperInvariant();
        await PutAsync(key, [1]);
        await PutAsync(other, [2]);
        Assert.Equal([1], await GetAsync(key));
        Assert.Equal([2], await GetAsync(other));
    }

    [Fact]
    public async Task TheLargestAllowedValueRoundTripsAndALargerOneIsTooLarge()
    {
        var value = new byte[KvLimits.MaxValueBytes];
        new Random(42).NextBytes(value);
        var key = NewKey();
        await PutAsync(key, value);
        Assert.Equal(value, await GetAsync(key));

        var tooLarge = await Client.PutAsync(Url(key), Bytes(new byte[KvLimits.MaxValueBytes + 1]));
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, tooLarge.StatusCode);
        Assert.Equal("application/problem+json", tooLarge.Content.Headers.ContentType?.MediaType);
        Assert.Equal(value, await GetAsync(key));
    }

    [Fact]
    public async Task ALongerChunkedValueIsTooLarge()
    {
        var content = new StreamContent(new MemoryStream(new byte[KvLimits.MaxValueBytes + 10]));
        content.Headers.ContentLength = null; // sent chunked: the limit is enforced while reading
        var request = new HttpRequestMessage(HttpMethod.Put, Url(NewKey())) { Content = content };
        request.Headers.TransferEncodingChunked = true;
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, (await Client.SendAsync(request)).StatusCode);
    }

    [Theory]
    [InlineData("/v0/entity")]
    [InlineData("/v0/entity?id=")]
    [InlineData("/v0/entity?id=a&id=b")]
    public async Task AMissingEmptyOrRepeatedIdIsABadRequest(string path)
    {
        foreach (var method in new[] { HttpMethod.Get, HttpMethod.Put, HttpMethod.Delete })
        {
            var response = await Client.SendAsync(new HttpRequestMessage(method, $"{path}{(path.Contains('?') ? '&' : '?')}storage={Storage}")
            {
                Content = method == HttpMethod.Put ? Bytes([1]) : null,
            });
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        }
    }

    [Fact]
    public async Task AKeyWithANulCharacterIsABadRequestOnEveryMethod()
    {
        // PostgreSQL's text cannot hold U+0000; the other stores could, so every store refuses it alike.
        foreach (var method in new[] { HttpMethod.Get, HttpMethod.Put, HttpMethod.Delete })
        {
            var response = await Client.SendAsync(new HttpRequestMessage(method, Url("a\0b")) { Content = method == HttpMethod.Put ? Bytes([1]) : null });
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            Assert.Contains("U+0000", await response.Content.ReadAsStringAsync());
        }
    }

    [Fact]
    public async Task AKeyOverTheLimitIsABadRequest()
    {
        var response = await Client.GetAsync(Url(new string('k', KvLimits.MaxKeyBytes + 1)));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await Client.GetAsync(Url(new string('k', KvLimits.MaxKeyBytes)))).StatusCode);
    }

    [Theory]
    [InlineData("POST")]
    [InlineData("PATCH")]
    [InlineData("OPTIONS")]
    public async Task AnotherMethodIsNotAllowed(string method)
    {
        var response = await Client.SendAsync(new HttpRequestMessage(new HttpMethod(method), Url(NewKey())) { Content = Bytes([1]) });
        Assert.Equal(HttpStatusCode.MethodNotAllowed, response.StatusCode);
        Assert.Equal(["GET", "PUT", "DELETE"], response.Content.Headers.Allow.SelectMany(a => a.Split(", ")).ToArray());
    }

    [Theory]
    [InlineData("/v0/")]
    [InlineData("/v0/entities?id=1")]
    [InlineData("/v0/entity/1")]
    public async Task AnUnknownPathUnderV0IsABadRequest(string path)
    {
        var response = await Client.GetAsync(path);
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task StatusAnswersWhileTheNodeServes() =>
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/v0/status")).StatusCode);

    [Fact]
    public async Task AnUnknownStorageIsABadRequest()
    {
        var response = await Client.GetAsync($"/v0/entity?id=k&storage=no-such-{Storage}");
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }
}
