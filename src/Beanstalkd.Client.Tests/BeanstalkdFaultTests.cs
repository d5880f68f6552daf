using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Beanstalkd.Client.Tests;

/// <summary>
/// The client when the server is not there, does not answer, answers nonsense or restarts: a
/// call fails with the right exception within its timeout, and the client recovers by itself.
/// </summary>
public sealed class BeanstalkdFaultTests
{
    private static readonly TimeSpan ShortTimeout = TimeSpan.FromMilliseconds(300);

    [Fact]
    public async Task AServerThatIsDownFailsCallsAtOnceAsUnavailable()
    {
        var options = BeanstalkdTestServer.Options(port: ClosedPort());
        options.Timeout = options.ConnectTimeout = TimeSpan.FromSeconds(2);
        // A pause far longer than two calls take, even on a loaded machine.
        options.ReconnectDelay = TimeSpan.FromSeconds(5);
        options.MaxReconnectDelay = TimeSpan.FromSeconds(10);
        await using var client = new BeanstalkdClient(options);
        var watch = Stopwatch.StartNew();

        var refused = await Assert.ThrowsAsync<BeanstalkdUnavailableException>(() => client.PingAsync().AsTask());
        // During the pause after a failed attempt, calls fail without trying again.
        var paused = await Assert.ThrowsAsync<BeanstalkdUnavailableException>(() => client.PutAsync("x"u8.ToArray()).AsTask());

        Assert.True(watch.Elapsed < options.Timeout, $"failing took {watch.Elapsed}");
        Assert.Equal(client.Endpoint, refused.Endpoint);
        Assert.IsType<SocketException>(refused.InnerException);
        Assert.Contains("next attempt", paused.Message);
    }

    [Fact]
    public async Task ACallWithoutAReplyFailsAsUnavailableAfterItsTimeoutAndTheConnectionIsDropped()
    {
        await using var silent = FakeBeanstalkd.Silent();
        var options = BeanstalkdTestServer.Options("default", silent.Port);
        options.Timeout = ShortTimeout;
        await using var client = new BeanstalkdClient(options);
        var watch = Stopwatch.StartNew();

        var error = await Assert.ThrowsAsync<BeanstalkdUnavailableException>(() => client.PutAsync("x"u8.ToArray()).AsTask());

        // Deadlines run on Environment.TickCount64, whose steps can be ~16 ms.
        Assert.True(watch.Elapsed >= ShortTimeout - TimeSpan.FromMilliseconds(20), $"gave up after {watch.Elapsed}");
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"gave up after {watch.Elapsed}");
        Assert.IsType<TimeoutException>(error.InnerException);
        // The close is seen when the fake's read wakes up: generous, since the other test classes of this
        // assembly (which start and stop servers) can hold the thread pool for seconds on a busy machine.
        await silent.ClientClosedAConnection.WaitAsync(TimeSpan.FromSeconds(30));

        // The next call does not reuse the dropped connection.
        await Assert.ThrowsAsync<BeanstalkdUnavailableException>(() => client.PingAsync().AsTask());
        Assert.Equal(2, silent.Connections);
    }

    [Fact]
    public async Task ASetUpWithoutAReplyFailsAsUnavailableWithinTheCallsTimeout()
    {
        await using var silent = FakeBeanstalkd.Silent();
        var options = BeanstalkdTestServer.Options(port: silent.Port); // a tube of its own: use/watch/ignore first
        options.Timeout = ShortTimeout;
        options.ConnectTimeout = TimeSpan.FromSeconds(10);
        await using var client = new BeanstalkdClient(options);
        var watch = Stopwatch.StartNew();

        await Assert.ThrowsAsync<BeanstalkdUnavailableException>(() => client.ReserveAsync().AsTask());

        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"gave up after {watch.Elapsed}");
    }

    public static TheoryData<string, string> Garbage => new()
    {
        { "HELLO WORLD\r\n", "HELLO WORLD" },
        { "USING some-other-tube\r\n", "USING some-other-tube" },
        { "INSERTED 12\r\n", "INSERTED 12" },
        { new string('x', 2000), new string('x', 80) + "…" },
        { "OK 5\r\nabcdefgh\r\n", "OK 5\\x0d\\x0aabcdefgh\\x0d\\x0a" },
        { "\u0001\u00ff\r\n", "\\x01\\xc3\\xbf" },
    };

    [Theory, MemberData(nameof(Garbage))]
    public async Task AReplyThatIsNotBeanstalkdIsAProtocolErrorAndTheConnectionIsReplaced(string reply, string reported)
    {
        await using var liar = FakeBeanstalkd.Answering(reply);
        await using var client = new BeanstalkdClient(BeanstalkdTestServer.Options("default", liar.Port));

        var error = await Assert.ThrowsAsync<BeanstalkdProtocolException>(() => client.PingAsync().AsTask());

        Assert.Equal(reported, error.Reply);
        await liar.ClientClosedAConnection.WaitAsync(TimeSpan.FromSeconds(30));
        await Assert.ThrowsAsync<BeanstalkdProtocolException>(() => client.PingAsync().AsTask());
        Assert.Equal(2, liar.Connections);
    }

    [Fact]
    public async Task AJobReservedForACallerThatGaveUpIsReleasedAndTheConnectionKeptInStep()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var server = new FakeBeanstalkd(line => line.StartsWith("reserve") ? "RESERVED 5 1\r\nx\r\n" : "RELEASED\r\n", gate.Task);
        await using var client = new BeanstalkdClient(BeanstalkdTestServer.Options("default", server.Port));
        using var giveUp = new CancellationTokenSource();

        var reserve = client.ReserveAsync(giveUp.Token).AsTask();
        await WaitUntilAsync(() => server.Received.Contains("reserve-with-timeout 0\r\n"));
        await giveUp.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => reserve);
        gate.SetResult();

        // The late reply is taken as the cancelled call's, and its job handed back at once.
        await WaitUntilAsync(() => server.Received.Contains("release 5 1024 0\r\n"));
        var next = await client.ReserveAsync();
        Assert.Equal(5UL, next?.Id);
        Assert.Equal(1, server.Connections);
    }

    [Fact]
    public async Task TheClientReconnectsAfterTheServerRestartsAndTheBinlogKeepsTheJob()
    {
        await using var server = await BeanstalkdProcess.StartAsync();
        var options = BeanstalkdTestServer.Options(port: server.Port);
        await using var client = new BeanstalkdClient(options);
        var id = await client.PutAsync("survives"u8.ToArray());

        await server.KillAsync();
        await Assert.ThrowsAsync<BeanstalkdUnavailableException>(() => client.PingAsync().AsTask());
        await server.RestartAsync();
        await WaitUntilAnsweringAsync(client);

        var job = await client.ReserveAsync();
        Assert.Equal(id, job?.Id);
        Assert.Equal("survives"u8.ToArray(), job!.Body.ToArray());
        await client.DeleteAsync(job.Id);
        var after = await client.PutAsync("after"u8.ToArray());
        Assert.True(after > id);
        Assert.Equal(1, await client.ReadyCountAsync());
    }

    [Fact]
    public async Task WithItsLoopRunningTheClientReconnectsAfterARestartBeforeAnyCall()
    {
        await using var server = await BeanstalkdProcess.StartAsync();
        await using var client = new BeanstalkdClient(BeanstalkdTestServer.Options(port: server.Port));
        using var stop = new CancellationTokenSource();
        var loop = client.RunAsync(stop.Token);
        await WaitUntilAsync(() => client.IsConnected);

        await server.KillAsync();
        await WaitUntilAsync(() => !client.IsConnected);
        await server.RestartAsync();
        await WaitUntilAsync(() => client.IsConnected);

        await client.PingAsync();
        await stop.CancelAsync();
        await loop.WaitAsync(TimeSpan.FromSeconds(5));
    }

    [Fact]
    public async Task CallsWaitingWhenTheServerDiesFailAsUnavailable()
    {
        await using var server = await BeanstalkdProcess.StartAsync();
        await using var client = new BeanstalkdClient(BeanstalkdTestServer.Options(port: server.Port));
        await client.PingAsync();

        var calls = Enumerable.Range(0, 200).Select(_ => client.PutAsync(new byte[1000]).AsTask()).ToList();
        await server.KillAsync();

        foreach (var call in calls)
        {
            // Each either made it before the kill or failed as unavailable; nothing else.
            try
            {
                await call;
            }
            catch (BeanstalkdUnavailableException)
            {
            }
        }
    }

    private static async Task WaitUntilAnsweringAsync(BeanstalkdClient client)
    {
        var waited = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                await client.PingAsync();
                return;
            }
            catch (BeanstalkdUnavailableException) when (waited.Elapsed < TimeSpan.FromSeconds(30))
            {
                await Task.Delay(50);
            }
        }
    }

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        var waited = Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(waited.Elapsed < TimeSpan.FromSeconds(10), "the condition never came true");
            await Task.Delay(10);
        }
    }

    private static int ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
