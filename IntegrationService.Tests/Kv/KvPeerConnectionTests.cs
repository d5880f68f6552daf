using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Text;
using IntegrationService.Kv.Cluster;

namespace IntegrationService.Tests.Kv;

/// <summary>
/// The hop's pipelined connection against a scripted owner on loopback: many requests share one
/// connection and each caller gets its own answer in order, answers cut anywhere are read whole, and
/// an answer that does not come, or a connection that ends, fails exactly the requests it should.
/// </summary>
public sealed class KvPeerConnectionTests
{
    private static readonly byte[] Headers = "Host: owner\r\nX-Kv-Proxied: 1\r\n"u8.ToArray();
    private static readonly TimeSpan Timeout = TimeSpan.FromMilliseconds(500);

    private static long Deadline(int ms = 5000) => Environment.TickCount64 + ms;

    private static string Value(int status, string body) =>
        $"HTTP/1.1 {status} OK\r\nContent-Length: {Encoding.ASCII.GetByteCount(body)}\r\nContent-Type: application/octet-stream\r\n\r\n{body}";

    private const string ChunkedProblem =
        "HTTP/1.1 404 Not Found\r\nContent-Type: application/problem+json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n2\r\n1}\r\n0\r\n\r\n";

    [Fact]
    public void PipelinedAnswersAreCutOneByOneWhereverTheBytesEnd()
    {
        var bytes = Encoding.ASCII.GetBytes(Value(200, "one") + ChunkedProblem + Value(201, ""));
        for (var cut = 0; cut <= bytes.Length; cut++)
        {
            var answers = new List<(int, string)>();
            var received = new ReadOnlySequence<byte>(bytes[..cut]);
            while (KvPeerConnection.TryReadAnswer(ref received, out var answer, out _)) answers.Add((answer.Status, Encoding.ASCII.GetString(answer.Body)));
            var rest = received.ToArray().Concat(bytes[cut..]).ToArray();
            var buffer = new ReadOnlySequence<byte>(rest);
            while (KvPeerConnection.TryReadAnswer(ref buffer, out var answer, out _)) answers.Add((answer.Status, Encoding.ASCII.GetString(answer.Body)));
            Assert.Equal([(200, "one"), (404, "{\"a\":1}"), (201, "")], answers);
            Assert.True(buffer.IsEmpty);
        }
    }

    [Fact]
    public async Task ManyConcurrentRequestsShareOneConnectionAndEachGetsItsOwnAnswer()
    {
        const int count = 200;
        await using var owner = new ScriptedOwner(async (stream, requests) =>
        {
            // Answers the requests in the order they came, each with its own path back, in bursts.
            var answered = 0;
            while (answered < count)
            {
                var batch = await requests.ReadAsync();
                var answers = string.Concat(batch.Select(r => Value(200, r)));
                await stream.WriteAsync(Encoding.ASCII.GetBytes(answers));
                answered += batch.Count;
            }
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Headers, Timeout, CancellationToken.None);

        var answers = await Task.WhenAll(Enumerable.Range(0, count).Select(i =>
            Task.Run(() => connection.ExchangeAsync("GET", "/v0/entity", $"?id=k{i}", null, Deadline(), CancellationToken.None))));

        for (var i = 0; i < count; i++) Assert.Equal($"GET /v0/entity?id=k{i}", Encoding.ASCII.GetString(answers[i].Body));
        Assert.Equal(1, owner.Connections);
    }

    [Fact]
    public async Task ARequestWithABodySendsItsLengthAndBytes()
    {
        await using var owner = new ScriptedOwner(async (stream, requests) =>
        {
            var batch = await requests.ReadAsync();
            await stream.WriteAsync(Encoding.ASCII.GetBytes(Value(201, batch[0])));
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Headers, Timeout, CancellationToken.None);

        var answer = await connection.ExchangeAsync("PUT", "/v0/entity", "?id=k", [1, 2, 3], Deadline(), CancellationToken.None);

        Assert.Equal(201, answer.Status);
        Assert.Equal("PUT /v0/entity?id=k body=010203", Encoding.ASCII.GetString(answer.Body));
    }

    [Fact]
    public async Task AnAnswerThatDoesNotComeTimesOutItsRequestAndTheOnesBehindItMayGoAgain()
    {
        await using var owner = new ScriptedOwner((_, _) => Task.Delay(System.Threading.Timeout.Infinite)); // reads, never answers
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Headers, Timeout, CancellationToken.None);

        var first = connection.ExchangeAsync("GET", "/v0/entity", "?id=a", null, Deadline(300), CancellationToken.None);
        var second = connection.ExchangeAsync("GET", "/v0/entity", "?id=b", null, Deadline(5000), CancellationToken.None);

        await Assert.ThrowsAsync<TimeoutException>(() => first);
        var behind = await Assert.ThrowsAsync<KvPeerClosedException>(() => second);
        Assert.Contains("no answer in time", behind.Message);
        Assert.False(connection.IsOpen);
    }

    [Fact]
    public async Task AClientThatLeavesStopsWaitingAndTheConnectionStaysInStep()
    {
        var release = new TaskCompletionSource();
        await using var owner = new ScriptedOwner(async (stream, requests) =>
        {
            var seen = new List<string>();
            while (seen.Count < 2) seen.AddRange(await requests.ReadAsync());
            await release.Task;
            await stream.WriteAsync(Encoding.ASCII.GetBytes(string.Concat(seen.Select(r => Value(200, r)))));
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Headers, Timeout, CancellationToken.None);
        using var leaves = new CancellationTokenSource();

        var abandoned = connection.ExchangeAsync("GET", "/v0/entity", "?id=a", null, Deadline(), leaves.Token);
        var kept = connection.ExchangeAsync("GET", "/v0/entity", "?id=b", null, Deadline(), CancellationToken.None);
        await leaves.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => abandoned);
        release.SetResult();

        Assert.Equal("GET /v0/entity?id=b", Encoding.ASCII.GetString((await kept).Body)); // not a's answer
        Assert.True(connection.IsOpen);
    }

    [Fact]
    public async Task WhenTheOwnerClosesEveryRequestNotAnsweredFailsAsClosedAndTheAnsweredOnesKeepTheirAnswers()
    {
        await using var owner = new ScriptedOwner(async (stream, requests) =>
        {
            var seen = new List<string>();
            while (seen.Count < 3) seen.AddRange(await requests.ReadAsync());
            await stream.WriteAsync(Encoding.ASCII.GetBytes(Value(200, seen[0])));
            stream.Close();
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Headers, Timeout, CancellationToken.None);

        var exchanges = Enumerable.Range(0, 3)
            .Select(i => connection.ExchangeAsync("GET", "/v0/entity", $"?id={i}", null, Deadline(), CancellationToken.None)).ToArray();

        Assert.Equal("GET /v0/entity?id=0", Encoding.ASCII.GetString((await exchanges[0]).Body));
        await Assert.ThrowsAsync<KvPeerClosedException>(() => exchanges[1]);
        await Assert.ThrowsAsync<KvPeerClosedException>(() => exchanges[2]);
        await Assert.ThrowsAsync<KvPeerClosedException>(() => connection.ExchangeAsync("GET", "/v0/entity", "?id=3", null, Deadline(), CancellationToken.None));
    }

    [Fact]
    public async Task AnAnswerWithConnectionCloseEndsTheConnectionAfterItIsDelivered()
    {
        await using var owner = new ScriptedOwner(async (stream, requests) =>
        {
            var seen = new List<string>();
            while (seen.Count < 2) seen.AddRange(await requests.ReadAsync());
            await stream.WriteAsync("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"u8.ToArray());
            await Task.Delay(System.Threading.Timeout.Infinite);
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Headers, Timeout, CancellationToken.None);

        var first = connection.ExchangeAsync("GET", "/v0/entity", "?id=a", null, Deadline(), CancellationToken.None);
        var second = connection.ExchangeAsync("GET", "/v0/entity", "?id=b", null, Deadline(), CancellationToken.None);

        Assert.Equal("ok", Encoding.ASCII.GetString((await first).Body));
        await Assert.ThrowsAsync<KvPeerClosedException>(() => second);
        Assert.False(connection.IsOpen);
    }

    [Fact]
    public async Task AConnectionThatCannotOpenSaysSo()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var endPoint = (IPEndPoint)listener.LocalEndpoint;
        listener.Stop(); // nobody listens there now

        await Assert.ThrowsAsync<KvPeerConnectException>(() => KvPeerConnection.OpenAsync(endPoint, Headers, Timeout, CancellationToken.None));
    }

    /// <summary>
    /// A TCP server that reads HTTP/1.1 requests (head, and a body by Content-Length) and hands each
    /// batch it read in one receive, as "METHOD target [body=hex]", to a script that writes the answers.
    /// </summary>
    private sealed class ScriptedOwner : IAsyncDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly Func<NetworkStream, System.Threading.Channels.ChannelReader<List<string>>, Task> _script;
        private readonly CancellationTokenSource _stop = new();
        private readonly List<TcpClient> _accepted = [];
        private readonly Task _accepting;

        public ScriptedOwner(Func<NetworkStream, System.Threading.Channels.ChannelReader<List<string>>, Task> script)
        {
            _script = script;
            _listener.Start();
            _accepting = AcceptAsync();
        }

        public IPEndPoint EndPoint => (IPEndPoint)_listener.LocalEndpoint;

        public int Connections
        {
            get
            {
                lock (_accepted) return _accepted.Count;
            }
        }

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            _listener.Stop();
            lock (_accepted) _accepted.ForEach(c => c.Dispose());
            await _accepting;
        }

        private async Task AcceptAsync()
        {
            try
            {
                while (true)
                {
                    var client = await _listener.AcceptTcpClientAsync(_stop.Token);
                    lock (_accepted) _accepted.Add(client);
                    var requests = System.Threading.Channels.Channel.CreateUnbounded<List<string>>();
                    _ = ReadRequestsAsync(client.GetStream(), requests.Writer);
                    _ = _script(client.GetStream(), requests.Reader);
                }
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                // stopped
            }
        }

        private static async Task ReadRequestsAsync(NetworkStream stream, System.Threading.Channels.ChannelWriter<List<string>> requests)
        {
            var received = new List<byte>();
            var chunk = new byte[4096];
            try
            {
                while (true)
                {
                    var n = await stream.ReadAsync(chunk);
                    if (n == 0) return;
                    received.AddRange(chunk.AsSpan(0, n));
                    var batch = new List<string>();
                    while (TryCut(received, out var request)) batch.Add(request);
                    if (batch.Count > 0) await requests.WriteAsync(batch);
                }
            }
            catch (Exception e) when (e is IOException or ObjectDisposedException)
            {
                // closed
            }
        }

        private static bool TryCut(List<byte> received, out string request)
        {
            request = "";
            var text = Encoding.ASCII.GetString(received.ToArray());
            var end = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            if (end < 0) return false;
            var lines = text[..end].Split("\r\n");
            var length = lines.Skip(1).Where(l => l.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase))
                .Select(l => int.Parse(l["Content-Length:".Length..].Trim(), System.Globalization.CultureInfo.InvariantCulture)).FirstOrDefault();
            if (received.Count < end + 4 + length) return false;
            var line = lines[0].Split(' ');
            request = $"{line[0]} {line[1]}" + (length > 0 ? $" body={Convert.ToHexString(received.GetRange(end + 4, length).ToArray())}" : "");
            received.RemoveRange(0, end + 4 + length);
            return true;
        }
    }
}
