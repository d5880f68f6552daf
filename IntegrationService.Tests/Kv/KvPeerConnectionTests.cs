using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Text;
using IntegrationService.Kv.Cluster;

namespace IntegrationService.Tests.Kv;

/// <summary>
/// The hop's pipelined connection against a scripted owner on loopback: it opens with the preface,
/// many requests share one connection and each caller gets its own answer in order, and an answer
/// that does not come, a frame that cannot be read, or a connection that ends, fails exactly the
/// requests it should.
/// </summary>
public sealed class KvPeerConnectionTests
{
    // How long opening a connection may take: generous, since a busy 2-core machine can take longer than
    // half a second to schedule the owner's accept; no test here is about a slow open.
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    private static long Deadline(int ms = 5000) => Environment.TickCount64 + ms;

    /// <summary>A found value whose bytes are <paramref name="text"/>, as the owner frames it.</summary>
    private static byte[] Value(string text)
    {
        var reply = new KvPeerReply(KvPeerOutcome.Value, Encoding.UTF8.GetBytes(text));
        var frame = new byte[KvPeerProtocol.MaxReplyBytes(reply)];
        return frame[..KvPeerProtocol.WriteReply(frame, reply)];
    }

    private static byte[] Values(IEnumerable<string> texts) => texts.SelectMany(Value).ToArray();

    private static string Text(KvPeerReply reply) => Encoding.UTF8.GetString(reply.Value!);

    private static Task<KvPeerReply> Get(KvPeerConnection connection, string key, long deadline, CancellationToken aborted) =>
        connection.ExchangeAsync(KvPeerOp.Get, null, key, default, deadline, aborted);

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
                await stream.WriteAsync(Values(batch));
                answered += batch.Count;
            }
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Timeout, CancellationToken.None);

        var answers = await Task.WhenAll(Enumerable.Range(0, count).Select(i =>
            Task.Run(() => Get(connection, $"k{i}", Deadline(), CancellationToken.None))));

        for (var i = 0; i < count; i++) Assert.Equal($"Get k{i}", Text(answers[i]));
        Assert.Equal(1, owner.Connections);
    }

    [Fact]
    public async Task APutSendsItsArchitectureKeyAndValue()
    {
        await using var owner = new ScriptedOwner(async (stream, requests) =>
        {
            var batch = await requests.ReadAsync();
            await stream.WriteAsync(Value(batch[0]));
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Timeout, CancellationToken.None);

        var answer = await connection.ExchangeAsync(KvPeerOp.Put, "tarantool-memtx", "k", new byte[] { 1, 2, 3 }, Deadline(), CancellationToken.None);

        Assert.Equal("Put k storage=tarantool-memtx value=010203", Text(answer));
    }

    [Fact]
    public async Task AnAnswerThatDoesNotComeTimesOutItsRequestAndTheOnesBehindItMayGoAgain()
    {
        await using var owner = new ScriptedOwner((_, _) => Task.Delay(System.Threading.Timeout.Infinite)); // reads, never answers
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Timeout, CancellationToken.None);

        var first = Get(connection, "a", Deadline(300), CancellationToken.None);
        var second = Get(connection, "b", Deadline(5000), CancellationToken.None);

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
            await stream.WriteAsync(Values(seen));
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Timeout, CancellationToken.None);
        using var leaves = new CancellationTokenSource();

        var abandoned = Get(connection, "a", Deadline(), leaves.Token);
        var kept = Get(connection, "b", Deadline(), CancellationToken.None);
        await leaves.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => abandoned);
        release.SetResult();

        Assert.Equal("Get b", Text(await kept)); // not a's answer
        Assert.True(connection.IsOpen);
    }

    [Fact]
    public async Task WhenTheOwnerClosesEveryRequestNotAnsweredFailsAsClosedAndTheAnsweredOnesKeepTheirAnswers()
    {
        await using var owner = new ScriptedOwner(async (stream, requests) =>
        {
            var seen = new List<string>();
            while (seen.Count < 3) seen.AddRange(await requests.ReadAsync());
            await stream.WriteAsync(Value(seen[0]));
            stream.Close();
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Timeout, CancellationToken.None);

        var exchanges = Enumerable.Range(0, 3)
            .Select(i => Get(connection, $"{i}", Deadline(), CancellationToken.None)).ToArray();

        Assert.Equal("Get 0", Text(await exchanges[0]));
        await Assert.ThrowsAsync<KvPeerClosedException>(() => exchanges[1]);
        await Assert.ThrowsAsync<KvPeerClosedException>(() => exchanges[2]);
        await Assert.ThrowsAsync<KvPeerClosedException>(() => Get(connection, "3", Deadline(), CancellationToken.None));
    }

    [Fact]
    public async Task AnAnswerThatCannotBeReadFailsTheOldestRequestWithTheReasonAndDropsTheConnection()
    {
        await using var owner = new ScriptedOwner(async (stream, requests) =>
        {
            var seen = new List<string>();
            while (seen.Count < 2) seen.AddRange(await requests.ReadAsync());
            await stream.WriteAsync(new byte[] { 0, 0, 0, 1, 99 }); // a frame of an outcome that does not exist
            await Task.Delay(System.Threading.Timeout.Infinite);
        });
        using var connection = await KvPeerConnection.OpenAsync(owner.EndPoint, Timeout, CancellationToken.None);

        var first = Get(connection, "a", Deadline(), CancellationToken.None);
        var second = Get(connection, "b", Deadline(), CancellationToken.None);

        Assert.Contains("unknown outcome 99", (await Assert.ThrowsAsync<KvPeerProtocolException>(() => first)).Message);
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

        await Assert.ThrowsAsync<KvPeerConnectException>(() => KvPeerConnection.OpenAsync(endPoint, Timeout, CancellationToken.None));
    }

    /// <summary>
    /// A TCP server that checks the preface, reads request frames and hands each batch it read in one
    /// receive, as "Op key [storage=name] [value=hex]", to a script that writes the answers.
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
            catch (Exception) when (_stop.IsCancellationRequested)
            {
                // Stopped. The loop can reach AcceptTcpClientAsync after DisposeAsync stopped the listener, which
                // then throws InvalidOperationException ("Not listening") before it looks at the token.
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
                    if (received.Count < KvPeerProtocol.Preface.Length) continue;
                    Assert.Equal(KvPeerProtocol.Preface.ToArray(), received.GetRange(0, KvPeerProtocol.Preface.Length));
                    var buffer = new ReadOnlySequence<byte>(received.Skip(KvPeerProtocol.Preface.Length).ToArray());
                    var batch = new List<string>();
                    var start = buffer.Length;
                    while (KvPeerProtocol.TryReadFrame(ref buffer, out var frame))
                    {
                        var request = KvPeerProtocol.ParseRequest(frame);
                        batch.Add($"{request.Op} {request.Key}" + (request.Storage is null ? "" : $" storage={request.Storage}") +
                                  (request.Value is null ? "" : $" value={Convert.ToHexString(request.Value)}"));
                    }
                    received.RemoveRange(KvPeerProtocol.Preface.Length, (int)(start - buffer.Length));
                    if (batch.Count > 0) await requests.WriteAsync(batch);
                }
            }
            catch (Exception e) when (e is IOException or ObjectDisposedException)
            {
                // closed
            }
        }
    }
}
