using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using IntegrationService.Kv;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Http;

/// <summary>
/// The service's Kestrel limits: an oversized body is a 413 ProblemDetails and writes nothing,
/// oversized headers 431, an oversized request line 414, and a client that dribbles its request
/// byte by byte is cut off while everyone else is served. The fixture shortens the header timeout
/// to 2 s so the test does not wait the production 10 s.
/// </summary>
public sealed class KestrelLimitTests(KestrelLimitTests.ShortTimeoutService service) : IClassFixture<KestrelLimitTests.ShortTimeoutService>
{
    public sealed class ShortTimeoutService : ServiceFixture
    {
        protected override IEnumerable<string> ExtraArguments => ["--Kestrel:Limits:RequestHeadersTimeout=00:00:02"];
    }

    private static readonly TimeSpan CutOffBound = TimeSpan.FromSeconds(30);

    private HttpClient Client => service.Client;

    [Theory]
    [InlineData("postgres", false)]
    [InlineData("tarantool-memtx", true)]
    public async Task ABodyOverTheLimitIs413AndWritesNothing(string storage, bool chunked)
    {
        var before = await SaveAsync(storage);
        var body = Encoding.UTF8.GetBytes($$"""{"name":"{{new string('a', 70_000)}}","familyName":"b","age":1,"booksCount":1}""");
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = new("application/json");
        if (chunked) content.Headers.ContentLength = null;
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/Author/Save?storage={storage}") { Content = content };
        if (chunked) request.Headers.TransferEncodingChunked = true;

        var response = await Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        using var problem = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Contains("65536", problem.RootElement.GetProperty("detail").GetString());
        Assert.Equal(before + 1, await SaveAsync(storage)); // nothing was inserted in between
    }

    [Fact]
    public async Task AValueOverTheLimitIsAnswered413AndTheConnectionServesTheNextRequest()
    {
        // Answered before the body is read: the server reads the rest and drops it, so a client that
        // sends it all reads the 413 rather than a reset, and its connection stays open.
        using var socket = await ConnectAsync();
        var key = $"limits-{Guid.NewGuid():N}";
        await socket.SendAsync(Encoding.ASCII.GetBytes(
            $"PUT /v0/entity?id={key}&storage=postgres HTTP/1.1\r\nHost: x\r\nContent-Length: {KvLimits.MaxValueBytes + 1}\r\n\r\n"));
        await socket.SendAsync(new byte[KvLimits.MaxValueBytes + 1]);
        await socket.SendAsync(Encoding.ASCII.GetBytes($"GET /v0/entity?id={key}&storage=postgres HTTP/1.1\r\nHost: x\r\n\r\n"));

        var answers = await ReadUntilAsync(socket, text => text.Length > 0 && text.IndexOf("HTTP/1.1 ", 1, StringComparison.Ordinal) is > 0 and var second
            && text.IndexOf("\r\n\r\n", second, StringComparison.Ordinal) > 0);
        Assert.StartsWith("HTTP/1.1 413 ", answers);
        Assert.Contains("HTTP/1.1 404 ", answers); // the same connection answered the next request
    }

    [Fact]
    public async Task AValueFarOverTheLimitIsAnswered413BeforeAClientThatWaitsToContinueSendsIt()
    {
        using var socket = await ConnectAsync();
        await socket.SendAsync(Encoding.ASCII.GetBytes(
            $"PUT /v0/entity?id=limits&storage=postgres HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: {100 * KvLimits.MaxValueBytes}\r\n\r\n"));
        // No 100 Continue first: nothing of the body was asked for.
        Assert.StartsWith("HTTP/1.1 413 ", await ReadUntilAsync(socket, text => text.Contains("\r\n\r\n")));
    }

    /// <summary>What the server sends until <paramref name="enough"/> holds of it (the server closing first, or 30 s, fails).</summary>
    private static async Task<string> ReadUntilAsync(Socket socket, Func<string, bool> enough)
    {
        using var timeout = new CancellationTokenSource(CutOffBound);
        var received = new StringBuilder();
        var buffer = new byte[4096];
        while (!enough(received.ToString()))
        {
            var read = await socket.ReceiveAsync(buffer, timeout.Token);
            if (read == 0) throw new IOException($"the server closed the connection after: {received}");
            received.Append(Encoding.Latin1.GetString(buffer, 0, read));
        }
        return received.ToString();
    }

    [Fact]
    public async Task HeadersOverTheLimitAre431()
    {
        using var big = new HttpRequestMessage(HttpMethod.Get, "/health/live");
        big.Headers.Add("X-Big", new string('a', 20_000));
        Assert.Equal(HttpStatusCode.RequestHeaderFieldsTooLarge, (await Client.SendAsync(big)).StatusCode);

        using var many = new HttpRequestMessage(HttpMethod.Get, "/health/live");
        for (var i = 0; i < 70; i++) many.Headers.Add($"X-Header-{i}", "1");
        Assert.Equal(HttpStatusCode.RequestHeaderFieldsTooLarge, (await Client.SendAsync(many)).StatusCode);

        using var fine = new HttpRequestMessage(HttpMethod.Get, "/health/live");
        for (var i = 0; i < 40; i++) fine.Headers.Add($"X-Header-{i}", new string('b', 100));
        Assert.Equal(HttpStatusCode.OK, (await Client.SendAsync(fine)).StatusCode);
    }

    [Fact]
    public async Task ARequestLineOverTheLimitIs414()
    {
        var response = await Client.GetAsync($"/Author/Get?id=1&pad={new string('a', 9_000)}");
        Assert.Equal(HttpStatusCode.RequestUriTooLong, response.StatusCode);
    }

    [Fact]
    public async Task AClientDribblingItsHeadersIsCutOffWhileOthersAreServed()
    {
        using var socket = await ConnectAsync();
        var dribble = DribbleAsync(socket, Encoding.ASCII.GetBytes("GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: " + new string('a', 10_000)));

        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/Author/GetAll?limit=1&storage=postgres")).StatusCode);
        Assert.True(await dribble.WaitAsync(CutOffBound), "the server never closed the dribbling connection");
    }

    [Fact]
    public async Task AClientDribblingItsBodyIsCutOffWhileOthersAreServed()
    {
        using var socket = await ConnectAsync();
        var head = "POST /Author/Save?storage=postgres HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n";
        await socket.SendAsync(Encoding.ASCII.GetBytes(head));
        var before = await SaveAsync("postgres");
        var dribble = DribbleAsync(socket, Encoding.ASCII.GetBytes("{\"name\":\"" + new string('a', 4_990)));

        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync("/Author/GetAll?limit=1&storage=postgres")).StatusCode);
        Assert.True(await dribble.WaitAsync(CutOffBound), "the server never closed the dribbling connection");
        Assert.Equal(before + 1, await SaveAsync("postgres"));
    }

    private async Task<Socket> ConnectAsync()
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(Client.BaseAddress!.Host, Client.BaseAddress.Port);
        return socket;
    }

    /// <summary>
    /// Sends <paramref name="bytes"/> one every 100 ms; true once the server has closed the
    /// connection (a read returns end of stream, possibly after its 408, or a send fails), false if
    /// everything was sent without the server cutting it off.
    /// </summary>
    private static async Task<bool> DribbleAsync(Socket socket, byte[] bytes)
    {
        var closed = WaitForCloseAsync(socket);
        var stopwatch = Stopwatch.StartNew();
        foreach (var b in bytes)
        {
            if (closed.IsCompleted) return true;
            try
            {
                await socket.SendAsync(new[] { b });
            }
            catch (SocketException)
            {
                return true;
            }
            await Task.Delay(100);
            if (stopwatch.Elapsed > CutOffBound) break;
        }
        return closed.IsCompleted;
    }

    private static async Task WaitForCloseAsync(Socket socket)
    {
        var buffer = new byte[4096];
        try
        {
            while (await socket.ReceiveAsync(buffer) > 0) { }
        }
        catch (SocketException)
        {
        }
    }

    /// <summary>Saves an author and returns its id; ids are handed out in order, so the next save tells whether anything was inserted meanwhile.</summary>
    private async Task<long> SaveAsync(string storage)
    {
        var response = await Client.PostAsync($"/Author/Save?storage={storage}",
            new StringContent("""{"name":"limits","familyName":"sentinel","age":1,"booksCount":1}""", Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        using var author = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return author.RootElement.GetProperty("id").GetInt64();
    }
}
