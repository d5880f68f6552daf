namespace Wire.Connections.Tests;

public sealed class ConnectionKeeperTests
{
    private static readonly TimeSpan Pause = TimeSpan.FromMilliseconds(300);

    [Fact]
    public async Task CallersWithoutAConnectionShareOneAttempt()
    {
        var server = new FakeServer { Gate = new(TaskCreationOptions.RunContinuationsAsynchronously) };
        await using var keeper = Keeper(server);

        var callers = Enumerable.Range(0, 10).Select(_ => keeper.ConnectAsync(Deadline(5000), CancellationToken.None).AsTask()).ToArray();
        server.Gate.SetResult();
        var outcomes = await Task.WhenAll(callers);

        Assert.Equal(1, server.Attempts);
        Assert.All(outcomes, o => Assert.Same(keeper.Current, o.Connection));
        Assert.True(keeper.IsConnected);
    }

    [Fact]
    public async Task AfterAFailedAttemptCallersFailAtOnceUntilThePauseEnds()
    {
        var server = new FakeServer { RefuseNext = 1 };
        await using var keeper = Keeper(server);

        var failed = await keeper.ConnectAsync(Deadline(5000), CancellationToken.None);
        var paused = await keeper.ConnectAsync(Deadline(5000), CancellationToken.None);

        Assert.Equal(ConnectFailure.Failed, failed.Failure);
        Assert.IsType<IOException>(failed.Error);
        Assert.Equal(ConnectFailure.Paused, paused.Failure);
        Assert.Same(failed.Error, paused.Error);
        Assert.InRange(paused.RetryInMs, 1, Pause.TotalMilliseconds * 1.2);
        Assert.Equal(1, server.Attempts);

        await Task.Delay(Pause * 1.3);
        var connected = await keeper.ConnectAsync(Deadline(5000), CancellationToken.None);
        Assert.Equal(ConnectFailure.None, connected.Failure);
        Assert.Equal(2, server.Attempts);
    }

    [Fact]
    public async Task ACallerStopsWaitingAtItsDeadlineAndTheAttemptStillConnects()
    {
        var server = new FakeServer { Gate = new(TaskCreationOptions.RunContinuationsAsynchronously) };
        await using var keeper = Keeper(server);

        var late = await keeper.ConnectAsync(Deadline(100), CancellationToken.None);
        server.Gate.SetResult();
        var next = await keeper.ConnectAsync(Deadline(5000), CancellationToken.None);

        Assert.Equal(ConnectFailure.TimedOut, late.Failure);
        Assert.NotNull(next.Connection);
        Assert.Equal(1, server.Attempts);
    }

    [Fact]
    public async Task TheLoopConnectsAndReconnectsAfterALossWithoutAnyCaller()
    {
        var server = new FakeServer();
        await using var keeper = Keeper(server);
        using var stop = new CancellationTokenSource();
        var loop = keeper.RunAsync(stop.Token);

        await WaitUntilAsync(() => keeper.IsConnected);
        var first = keeper.Current!;
        first.Break();
        await WaitUntilAsync(() => keeper.IsConnected && keeper.Current != first);

        Assert.Equal(2, server.Attempts);
        Assert.True(first.Disposed);
        await stop.CancelAsync();
        await loop.WaitAsync(TimeSpan.FromSeconds(5));
    }

    [Fact]
    public async Task TheLoopRetriesAfterEachPauseWhileAttemptsFail()
    {
        var server = new FakeServer { RefuseNext = 2 };
        await using var keeper = Keeper(server, first: TimeSpan.FromMilliseconds(50));
        using var stop = new CancellationTokenSource();
        var loop = keeper.RunAsync(stop.Token);

        await WaitUntilAsync(() => keeper.IsConnected);

        Assert.Equal(3, server.Attempts);
        await stop.CancelAsync();
        await loop.WaitAsync(TimeSpan.FromSeconds(5));
    }

    [Fact]
    public async Task DisposingEndsTheLoopAndClosesTheConnection()
    {
        var server = new FakeServer();
        var keeper = Keeper(server);
        var loop = keeper.RunAsync(CancellationToken.None);
        await WaitUntilAsync(() => keeper.IsConnected);
        var connection = keeper.Current!;

        await keeper.DisposeAsync();

        await loop.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.True(connection.Disposed);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => keeper.ConnectAsync(Deadline(1000), CancellationToken.None).AsTask());
        Assert.Equal(1, server.Attempts);
    }

    private static ConnectionKeeper<FakeConnection> Keeper(FakeServer server, TimeSpan? first = null) =>
        new(server.OpenAsync, new ReconnectBackoff(first ?? Pause, TimeSpan.FromSeconds(2), new Random(1)));

    private static long Deadline(int milliseconds) => Environment.TickCount64 + milliseconds;

    private static Task WaitUntilAsync(Func<bool> condition) => PipelinedWriterTests.WaitUntilAsync(condition);
}
