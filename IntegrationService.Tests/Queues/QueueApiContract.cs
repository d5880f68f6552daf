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

    // ---- the leased read: POST /read?lease=, POST /ack, POST /nack ----------------------------------

    protected Task<HttpResponseMessage> LeaseAsync(string lease = "30s") => Client.PostAsync($"/read/{QueueInUrl}?lease={lease}", null);

    private Task<HttpResponseMessage> AckAsync(string receipt) => Client.PostAsync($"/ack/{QueueInUrl}/{receipt}", null);

    private Task<HttpResponseMessage> NackAsync(string receipt) => Client.PostAsync($"/nack/{QueueInUrl}/{receipt}", null);

    private static (long Id, string Receipt, JsonElement Message) Leased(JsonElement json) =>
        (json.GetProperty("id").GetInt64(), json.GetProperty("receipt").GetString()!, json.GetProperty("read_message"));

    private async Task<(long Id, string Receipt, JsonElement Message)> LeaseOneAsync(string lease = "30s")
    {
        var response = await LeaseAsync(lease);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return Leased(await JsonAsync(response));
    }

    /// <summary>Leases until a message comes, for at most <paramref name="within"/> (a lease that ended is given back by the store's own clock).</summary>
    private async Task<(long Id, string Receipt, JsonElement Message)> LeaseWhenBackAsync(TimeSpan within) =>
        Leased(await FirstMessageAsync(() => LeaseAsync(), within));

    /// <summary>Reads with <paramref name="read"/> until it answers 200 (204 meanwhile), for at most <paramref name="within"/>.</summary>
    private static async Task<JsonElement> FirstMessageAsync(Func<Task<HttpResponseMessage>> read, TimeSpan within)
    {
        var until = DateTime.UtcNow + within;
        while (true)
        {
            var response = await read();
            if (response.StatusCode == HttpStatusCode.OK) return await JsonAsync(response);
            Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
            Assert.True(DateTime.UtcNow < until, $"nothing came back within {within.TotalSeconds} s");
            await Task.Delay(100);
        }
    }

    private async Task<long> WriteIdAsync(string json)
    {
        var write = await WriteAsync(json);
        Assert.Equal(HttpStatusCode.Created, write.StatusCode);
        return (await JsonAsync(write)).GetProperty("id").GetInt64();
    }

    [Fact]
    public async Task ALeasedMessageComesWithAReceiptIsNobodyElsesAndIsGoneOnceAcknowledged()
    {
        await DrainAsync();
        var id = await WriteIdAsync("""{"lease":"me"}""");

        var response = await LeaseAsync("30s");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var body = await response.Content.ReadAsStringAsync();
        Assert.Contains("\"read_message\":{\"lease\":\"me\"}", body); // byte for byte, as GET /read
        var json = JsonDocument.Parse(body).RootElement;
        Assert.Equal(Queue, json.GetProperty("queue").GetString());
        Assert.Equal("lease", json.GetProperty("action").GetString());
        Assert.Equal(id, json.GetProperty("id").GetInt64());
        Assert.Equal(30_000, json.GetProperty("lease_ms").GetInt64());
        var receipt = json.GetProperty("receipt").GetString()!;
        Assert.True(QueueLease.IsWellFormed(receipt), receipt);

        // Leased: neither read path hands it out, and it is not waiting.
        Assert.Equal(HttpStatusCode.NoContent, (await LeaseAsync()).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
        Assert.Equal(0, (await JsonAsync(await Client.GetAsync($"/depth/{QueueInUrl}"))).GetProperty("depth").GetInt64());

        Assert.Equal(HttpStatusCode.NoContent, (await AckAsync(receipt)).StatusCode);
        await AssertProblemAsync(await AckAsync(receipt), HttpStatusCode.NotFound, "already acknowledged");
        await AssertProblemAsync(await NackAsync(receipt), HttpStatusCode.NotFound, "No lease");
    }

    [Fact]
    public async Task AnAcknowledgedMessageNeverComesBackEvenAfterItsLease()
    {
        await DrainAsync();
        await WriteIdAsync("""{"acked":1}""");
        var (_, receipt, _) = await LeaseOneAsync("1s");
        Assert.Equal(HttpStatusCode.NoContent, (await AckAsync(receipt)).StatusCode);

        await Task.Delay(TimeSpan.FromSeconds(3)); // past the lease, and past a reaper's pass
        Assert.Equal(HttpStatusCode.NoContent, (await LeaseAsync()).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
    }

    [Fact]
    public async Task AMessageNeverAcknowledgedComesBackAfterItsLeaseAndTheOldReceiptIsRefused()
    {
        await DrainAsync();
        var id = await WriteIdAsync("""{"forgotten":true}""");
        var started = DateTime.UtcNow;
        var (_, first, _) = await LeaseOneAsync("1s");
        Assert.Equal(HttpStatusCode.NoContent, (await LeaseAsync()).StatusCode);

        await Task.Delay(TimeSpan.FromSeconds(1.5));
        // Expired: its receipt no longer acknowledges, even before anyone leased the message again.
        await AssertProblemAsync(await AckAsync(first), HttpStatusCode.NotFound, "expired");

        var (againId, second, message) = await LeaseWhenBackAsync(TimeSpan.FromSeconds(15));
        Assert.True(DateTime.UtcNow - started >= TimeSpan.FromSeconds(1), "delivered again before its lease ended");
        Assert.Equal(id, againId);
        Assert.True(message.GetProperty("forgotten").GetBoolean());
        Assert.NotEqual(first, second);
        await AssertProblemAsync(await AckAsync(first), HttpStatusCode.NotFound, "No lease");
        Assert.Equal(HttpStatusCode.NoContent, (await AckAsync(second)).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await LeaseAsync()).StatusCode);
    }

    /// <summary>The store gives an ended lease back by itself: a reader of GET /read alone, who never leases, gets it.</summary>
    [Fact]
    public async Task ALeaseThatEndsGivesItsMessageBackToGetReadToo()
    {
        await DrainAsync();
        var id = await WriteIdAsync("""{"back":"to get"}""");
        await LeaseOneAsync("1s");
        Assert.Equal(id, (await FirstMessageAsync(ReadAsync, TimeSpan.FromSeconds(15))).GetProperty("id").GetInt64());
        Assert.Equal(HttpStatusCode.NoContent, (await LeaseAsync()).StatusCode);
    }

    [Fact]
    public async Task ANackedMessageIsDeliveredAgainAtOnce()
    {
        await DrainAsync();
        var first = await WriteIdAsync("""{"n":1}""");
        var second = await WriteIdAsync("""{"n":2}""");
        var (leased, receipt, _) = await LeaseOneAsync("5m");
        Assert.Equal(first, leased);
        Assert.Equal(HttpStatusCode.NoContent, (await NackAsync(receipt)).StatusCode);
        await AssertProblemAsync(await AckAsync(receipt), HttpStatusCode.NotFound, "given back");

        // Well within the 5-minute lease: given back, not expired.
        var (again, receiptAgain, _) = await LeaseWhenBackAsync(TimeSpan.FromSeconds(5));
        var (next, receiptNext, _) = await LeaseOneAsync();
        Assert.Equal([first, second], new[] { again, next }.Order());
        Assert.Equal(HttpStatusCode.NoContent, (await AckAsync(receiptAgain)).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await AckAsync(receiptNext)).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await LeaseAsync()).StatusCode);
    }

    [Fact]
    public async Task TwoReadersNeverHoldTheSameLeaseAndTogetherTheyGetEveryMessage()
    {
        await DrainAsync();
        var written = new HashSet<long>();
        for (var i = 0; i < 40; i++) written.Add(await WriteIdAsync($$"""{"n":{{i}}}"""));

        var leases = new System.Collections.Concurrent.ConcurrentBag<(long Id, string Receipt)>();
        await Task.WhenAll(Enumerable.Range(0, 8).Select(async _ =>
        {
            while (true)
            {
                var response = await LeaseAsync();
                if (response.StatusCode == HttpStatusCode.NoContent) return;
                Assert.Equal(HttpStatusCode.OK, response.StatusCode);
                var (id, receipt, _) = Leased(await JsonAsync(response));
                leases.Add((id, receipt));
            }
        }));

        Assert.Equal(written.Order(), leases.Select(l => l.Id).Order()); // each once: no message held twice, none missed
        Assert.Equal(40, leases.Select(l => l.Receipt).Distinct().Count());
        foreach (var (_, receipt) in leases) Assert.Equal(HttpStatusCode.NoContent, (await AckAsync(receipt)).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
    }

    [Fact]
    public async Task GetReadSkipsALeasedMessageAndTakesTheNext()
    {
        await DrainAsync();
        var first = await WriteIdAsync("""{"n":1}""");
        var second = await WriteIdAsync("""{"n":2}""");
        var (leased, receipt, _) = await LeaseOneAsync();
        Assert.Equal(first, leased);
        Assert.Equal(second, (await JsonAsync(await ReadAsync())).GetProperty("id").GetInt64());
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await AckAsync(receipt)).StatusCode);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("500ms")]
    [InlineData("16m")]
    [InlineData("901s")]
    [InlineData("-5")]
    [InlineData("soon")]
    [InlineData("1h")]
    public async Task ALeaseOutsideOneSecondToFifteenMinutesIsRefusedAndTakesNothing(string lease)
    {
        await DrainAsync();
        var id = await WriteIdAsync("""{"kept":true}""");
        await AssertProblemAsync(await LeaseAsync(lease), HttpStatusCode.BadRequest, lease);
        Assert.Equal(id, (await JsonAsync(await ReadAsync())).GetProperty("id").GetInt64());
    }

    [Theory]
    [InlineData("00000000000000000000000000000000")]
    [InlineData("1-2")]
    [InlineData("nope")]
    public async Task AnUnknownReceiptIs404ProblemDetails(string receipt)
    {
        await AssertProblemAsync(await AckAsync(receipt), HttpStatusCode.NotFound, "No lease");
        await AssertProblemAsync(await NackAsync(receipt), HttpStatusCode.NotFound, "No lease");
    }

    [Fact]
    public async Task AMalformedReceiptIs400()
    {
        await AssertProblemAsync(await AckAsync("has%20space"), HttpStatusCode.BadRequest, "receipt");
        await AssertProblemAsync(await AckAsync(new string('a', QueueLease.MaxReceiptLength + 1)), HttpStatusCode.BadRequest, "receipt");
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
