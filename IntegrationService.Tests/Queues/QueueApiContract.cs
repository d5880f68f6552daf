using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using IntegrationService.Queues;
using IntegrationService.Storage;
using IntegrationService.Tests.Fixtures;
using Microsoft.Extensions.DependencyInjection;

namespace IntegrationService.Tests.Queues;

/// <summary>
/// The queue API contract (<c>/write/{queue}</c>, <c>/read/{queue}</c>), run unchanged on every
/// queue architecture. The tests run one class at a time (assembly setting), and each drains the
/// test instance's queue before it starts, so what it reads is what it wrote.
/// </summary>
public abstract class QueueApiContract(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    protected abstract string Queue { get; }

    /// <summary>The spelling used in the URLs (an alias for some).</summary>
    protected virtual string QueueInUrl => Queue;

    private HttpClient Client => service.Client;

    protected IServiceProvider Services => service.Services;

    protected Task<HttpResponseMessage> WriteAsync(string json) =>
        Client.PostAsync($"/write/{QueueInUrl}", new StringContent(json, Encoding.UTF8, "application/json"));

    protected Task<HttpResponseMessage> ReadAsync() => Client.GetAsync($"/read/{QueueInUrl}");

    protected async Task DrainAsync()
    {
        for (var i = 0; i < 1_000_000; i++)
        {
            var response = await ReadAsync();
            if (response.StatusCode == HttpStatusCode.NoContent) return;
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }
        Assert.Fail("the queue did not drain");
    }

    private static async Task<JsonElement> JsonAsync(HttpResponseMessage response) =>
        (await response.Content.ReadFromJsonAsync<JsonElement>())!;

    [Fact]
    public async Task AWrittenMessageIsReadBackWithTheOriginalsFields()
    {
        await DrainAsync();
        var json = """{"text":"héllo \u0000 \"quoted\"","n":[1,2.5,null,true],"nested":{"a":{}}}""";
        var write = await WriteAsync(json);
        Assert.Equal(HttpStatusCode.Created, write.StatusCode);
        var written = await JsonAsync(write);
        Assert.Equal(Queue, written.GetProperty("queue").GetString());
        Assert.Equal("write", written.GetProperty("action").GetString());
        Assert.True(written.GetProperty("created_message").GetBoolean());
        var id = written.GetProperty("id").GetInt64();

        var read = await ReadAsync();
        Assert.Equal(HttpStatusCode.OK, read.StatusCode);
        Assert.Equal("application/json", read.Content.Headers.ContentType?.MediaType);
        var body = await read.Content.ReadAsStringAsync();
        // The message comes back byte for byte as it was written.
        Assert.Contains($"\"read_message\":{json}", body);
        var message = JsonDocument.Parse(body).RootElement;
        Assert.Equal(Queue, message.GetProperty("queue").GetString());
        Assert.Equal("read", message.GetProperty("action").GetString());
        Assert.Equal(id, message.GetProperty("id").GetInt64());

        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
    }

    [Fact]
    public async Task AWriteWithoutABodyEnqueuesAGeneratedMessageShapedLikeTheOriginals()
    {
        await DrainAsync();
        var write = await Client.GetAsync($"/write/{QueueInUrl}");
        Assert.Equal(HttpStatusCode.Created, write.StatusCode);
        var id = (await JsonAsync(write)).GetProperty("id").GetInt64();

        var read = await JsonAsync(await ReadAsync());
        Assert.Equal(id, read.GetProperty("id").GetInt64());
        var message = read.GetProperty("read_message");
        var payload = message.GetProperty("payload");
        Assert.True(Guid.TryParse(payload.GetProperty("uuid").GetString(), out _));
        Assert.Contains("@", payload.GetProperty("email").GetString());
        foreach (var field in new[] { "username", "first_name", "last_name" })
        {
            Assert.False(string.IsNullOrEmpty(payload.GetProperty(field).GetString()), field);
        }
        Assert.Matches("^[0-9a-f]{14}$", message.GetProperty("title").GetString());
        Assert.InRange(message.GetProperty("timestamp").GetInt64(), DateTimeOffset.UtcNow.AddMinutes(-5).ToUnixTimeSeconds(),
            DateTimeOffset.UtcNow.AddMinutes(5).ToUnixTimeSeconds());
    }

    [Fact]
    public async Task OneProducerAndOneConsumerSeeFifoOrder()
    {
        await DrainAsync();
        var ids = new List<long>();
        for (var i = 0; i < 50; i++)
        {
            var write = await WriteAsync($$"""{"n":{{i}}}""");
            Assert.Equal(HttpStatusCode.Created, write.StatusCode);
            ids.Add((await JsonAsync(write)).GetProperty("id").GetInt64());
        }
        Assert.Equal(ids.Order(), ids); // ids grow with the order of writes
        Assert.Equal(50, (await JsonAsync(await Client.GetAsync($"/depth/{QueueInUrl}"))).GetProperty("depth").GetInt64());

        for (var i = 0; i < 50; i++)
        {
            var read = await JsonAsync(await ReadAsync());
            Assert.Equal(i, read.GetProperty("read_message").GetProperty("n").GetInt32());
            Assert.Equal(ids[i], read.GetProperty("id").GetInt64());
        }
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
        Assert.Equal(0, (await JsonAsync(await Client.GetAsync($"/depth/{QueueInUrl}"))).GetProperty("depth").GetInt64());
    }

    [Fact]
    public async Task AnEmptyQueueAnswers204WithNoBody()
    {
        await DrainAsync();
        var read = await ReadAsync();
        Assert.Equal(HttpStatusCode.NoContent, read.StatusCode);
        Assert.Empty(await read.Content.ReadAsByteArrayAsync());
    }

    [Theory]
    [InlineData("{", "not valid JSON")]
    [InlineData("""{"a":1} {"b":2}""", "not valid JSON")]
    [InlineData("""{"a":1,}""", "not valid JSON")]
    [InlineData("nope", "not valid JSON")]
    public async Task AMalformedMessageIs400AndNothingIsEnqueued(string body, string detail)
    {
        await DrainAsync();
        var response = await WriteAsync(body);
        await AssertProblemAsync(response, HttpStatusCode.BadRequest, detail);
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
    }

    [Fact]
    public async Task AMessageOverTheLimitIs413AndOneAtTheLimitIsAccepted()
    {
        await DrainAsync();
        const int limit = 16 * 1024;
        string Message(int size) => "\"" + new string('x', size - 2) + "\"";
        await AssertProblemAsync(await WriteAsync(Message(limit + 1)), HttpStatusCode.RequestEntityTooLarge, "at most 16384 bytes");
        Assert.Equal(HttpStatusCode.Created, (await WriteAsync(Message(limit))).StatusCode);
        var read = await JsonAsync(await ReadAsync());
        Assert.Equal(limit - 2, read.GetProperty("read_message").GetString()!.Length);
    }

    [Fact]
    public async Task ANonJsonContentTypeIs415()
    {
        var response = await Client.PostAsync($"/write/{QueueInUrl}", new StringContent("{}", Encoding.UTF8, "text/plain"));
        // Refused by routing (the endpoint accepts application/json only), as the item routes are.
        await AssertProblemAsync(response, HttpStatusCode.UnsupportedMediaType, detail: null);
    }

    private IQueueStore Store => Services.GetRequiredService<StorageRegistry>().Queue(Queue).Store;

    /// <summary>Writes <paramref name="count"/> messages and returns the id of the last.</summary>
    private async Task<long> WriteSomeAsync(int count)
    {
        var last = 0L;
        for (var i = 0; i < count; i++)
        {
            var write = await WriteAsync($$"""{"purge":{{i}}}""");
            Assert.Equal(HttpStatusCode.Created, write.StatusCode);
            last = (await JsonAsync(write)).GetProperty("id").GetInt64();
        }
        return last;
    }

    /// <summary>
    /// The store's purge (purge-queue's): it removes what was written and says so, and the queue goes
    /// on working, its ids still growing. The suite runs one class at a time, so these messages are
    /// the queue's only ones: a purge that removed nothing, or not all, fails on the counts.
    /// </summary>
    [Fact]
    public async Task APurgeRemovesEveryWaitingMessageAndSaysHowMany()
    {
        await DrainAsync();
        var lastBefore = await WriteSomeAsync(7);
        Assert.Equal(7, await Store.CountAsync(CancellationToken.None));

        Assert.Equal(7, await Store.PurgeAsync(CancellationToken.None));

        Assert.Equal(0, await Store.CountAsync(CancellationToken.None));
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
        var after = await WriteAsync("""{"after":"purge"}""");
        Assert.Equal(HttpStatusCode.Created, after.StatusCode);
        Assert.True((await JsonAsync(after)).GetProperty("id").GetInt64() > lastBefore, "ids go on growing after a purge");
        Assert.Contains("\"read_message\":{\"after\":\"purge\"}", await (await ReadAsync()).Content.ReadAsStringAsync());
        Assert.Equal(0, await Store.PurgeAsync(CancellationToken.None));
    }

    /// <summary><c>IntegrationService purge-queue</c> as the bench runs it: a process of its own, one JSON line.</summary>
    [Fact]
    public async Task PurgeQueueEmptiesTheQueueAndPrintsTheDepthBeforeAndAfter()
    {
        await DrainAsync();
        await WriteSomeAsync(5);

        var (code, output, error) = await ServiceTool.RunAsync("purge-queue", "--queue", QueueInUrl);

        Assert.True(code == 0, error);
        using var json = JsonDocument.Parse(output);
        Assert.Equal(Queue, json.RootElement.GetProperty("queue").GetString());
        Assert.Equal(5, json.RootElement.GetProperty("depth_before").GetInt64());
        Assert.Equal(0, json.RootElement.GetProperty("depth_after").GetInt64());
        Assert.True(json.RootElement.GetProperty("seconds").GetDouble() >= 0);
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
    }

    private static async Task AssertProblemAsync(HttpResponseMessage response, HttpStatusCode status, string? detail)
    {
        Assert.Equal(status, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var problem = await JsonAsync(response);
        Assert.Equal((int)status, problem.GetProperty("status").GetInt32());
        if (detail is not null) Assert.Contains(detail, problem.GetProperty("detail").GetString());
    }
}
