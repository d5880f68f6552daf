using System.Diagnostics;
using Microsoft.Extensions.Logging.Abstractions;

namespace Tarantool.Iproto.Tests;

/// <summary>The idle ping, deadlines and cancellation, against <see cref="FakeTarantool"/> (no server needed).</summary>
[Collection(TimingSensitive.Name)]
public sealed class IprotoIdleTests
{
    private static readonly TimeSpan PingInterval = TimeSpan.FromMilliseconds(200);
    // Generous beside the interval: on a loaded machine a loopback answer can take a few hundred milliseconds.
    private static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(1);

    [Fact]
    public async Task ASilentServerFailsWaitingCallsOnceThePingGoesUnanswered()
    {
        await using var server = new FakeTarantool(_ => null);
        await using var connection = await IprotoConnection.OpenAsync(server.Options(PingInterval, PingTimeout), Bounded());
        var watch = Stopwatch.StartNew();

        // The call's own timeout is far away: the failed ping ends it.
        var error = await Assert.ThrowsAsync<IprotoUnavailableException>(() =>
            connection.SendAsync(IprotoCode.Select, (512u, 1L), IprotoBody.WriteSelectById, TimeSpan.FromSeconds(30), CancellationToken.None));

        Assert.Equal(IprotoUnavailableReason.ConnectionLost, error.Reason);
        Assert.Contains("ping", error.InnerException!.Message);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"took {watch.Elapsed}");
        // The waiting calls are failed first; the close completes right after, on another thread.
        await connection.Closed.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.False(connection.IsOpen);
        Assert.True(server.Pings >= 1);
        var late = await Assert.ThrowsAsync<IprotoUnavailableException>(() =>
            connection.SendAsync(IprotoCode.Ping, 0, null, TimeSpan.FromSeconds(30), CancellationToken.None));
        Assert.Equal(IprotoUnavailableReason.NotConnected, late.Reason);
    }

    [Fact]
    public async Task AServerThatAnswersPingsKeepsTheIdleConnectionOpen()
    {
        await using var server = new FakeTarantool(code => code == IprotoCode.Ping ? FakeTarantool.Ok : null);
        await using var connection = await IprotoConnection.OpenAsync(server.Options(PingInterval, PingTimeout), Bounded());

        // Three pings take about 0.75 s; a loaded machine's late timers get up to 10 s.
        var waited = Stopwatch.StartNew();
        while (server.Pings < 3 && connection.IsOpen && waited.Elapsed < TimeSpan.FromSeconds(10)) await Task.Delay(50);

        Assert.True(connection.IsOpen);
        Assert.True(server.Pings >= 3, $"{server.Pings} pings in {waited.Elapsed}");
        using var answer = await connection.SendAsync(IprotoCode.Ping, 0, null, TimeSpan.FromSeconds(5), CancellationToken.None);
    }

    [Fact]
    public async Task ARequestTimeoutFailsOnlyThatCall()
    {
        await using var server = new FakeTarantool(code => code == IprotoCode.Ping ? FakeTarantool.Ok : null);
        await using var connection = await IprotoConnection.OpenAsync(server.Options(PingInterval, PingTimeout), Bounded());

        var error = await Assert.ThrowsAsync<IprotoUnavailableException>(() =>
            connection.SendAsync(IprotoCode.Select, (512u, 1L), IprotoBody.WriteSelectById, TimeSpan.FromMilliseconds(100), CancellationToken.None));

        Assert.Equal(IprotoUnavailableReason.Timeout, error.Reason);
        Assert.True(connection.IsOpen);
    }

    [Fact]
    public async Task CancellingACallEndsItWithoutBreakingTheConnection()
    {
        await using var server = new FakeTarantool(code => code == IprotoCode.Ping ? FakeTarantool.Ok : null);
        await using var connection = await IprotoConnection.OpenAsync(server.Options(PingInterval, PingTimeout), Bounded());
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(100));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            connection.SendAsync(IprotoCode.Select, (512u, 1L), IprotoBody.WriteSelectById, TimeSpan.FromSeconds(30), cancel.Token));

        Assert.True(connection.IsOpen);
    }

    [Fact]
    public async Task AClientWithoutAConnectionFailsAtOnceAsNotConnected()
    {
        // Never connected: TryConnectAsync (or RunAsync) is not called.
        await using var client = new IprotoClient(TarantoolTestServer.Options(requestTimeoutMs: 30_000), NullLogger<IprotoClient>.Instance);
        var watch = Stopwatch.StartNew();

        var error = await Assert.ThrowsAsync<IprotoUnavailableException>(() =>
            client.SendAsync(IprotoCode.Ping, 0, null, CancellationToken.None));

        Assert.Equal(IprotoUnavailableReason.NotConnected, error.Reason);
        Assert.False(client.IsConnected);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"took {watch.Elapsed}"); // at once, not after the 30-s timeout
    }

    private static CancellationToken Bounded() => new CancellationTokenSource(TimeSpan.FromSeconds(5)).Token;
}
