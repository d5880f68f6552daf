using System.Diagnostics;
using IntegrationService.Storage;
using IntegrationService.Storage.Tarantool;
using IntegrationService.Storage.Tarantool.Iproto;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using MessagePack;

namespace IntegrationService.Tests.Tarantool;

/// <summary>The idle ping and the exception translation, against <see cref="FakeTarantool"/> (no server needed).</summary>
public sealed class IprotoIdleTests
{
    private static readonly TimeSpan PingInterval = TimeSpan.FromMilliseconds(200);
    private static readonly TimeSpan PingTimeout = TimeSpan.FromMilliseconds(300);

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
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(3), $"took {watch.Elapsed}");
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

        await Task.Delay(TimeSpan.FromSeconds(1.5));

        Assert.True(connection.IsOpen);
        Assert.True(server.Pings >= 3, $"{server.Pings} pings");
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
    public async Task TarantoolConnectionTurnsUnavailableIntoStorageUnavailableAndPassesServerErrorsThrough()
    {
        var emptyData = new byte[] { 0x81, 0x30, 0x90 }; // {data: []}: no spaces
        var error = new byte[] { 0x81, 0x31, 0xa4, (byte)'b', (byte)'o', (byte)'o', (byte)'m' };
        await using var server = new FakeTarantool(code => code switch
        {
            IprotoCode.Ping => FakeTarantool.Ok,
            IprotoCode.Select => (0, emptyData),
            IprotoCode.Eval => (0x8000 | 32, error),
            _ => null,
        });
        var options = new TarantoolOptions { Host = "127.0.0.1", Port = server.Port, User = "guest", RequestTimeoutMs = 300 };
        await using var connection = new TarantoolConnection(Options.Create(options), NullLogger<TarantoolConnection>.Instance);
        Assert.True(await connection.TryConnectAsync(CancellationToken.None));

        var unavailable = await Assert.ThrowsAsync<StorageUnavailableException>(() =>
            connection.SendAsync(IprotoCode.Call, 0, null, CancellationToken.None));
        var serverError = await Assert.ThrowsAsync<IprotoServerException>(() =>
            connection.SendAsync(IprotoCode.Eval, "error('boom')", WriteEval, CancellationToken.None));

        Assert.Equal("tarantool", unavailable.Backend);
        Assert.IsType<IprotoUnavailableException>(unavailable.InnerException);
        Assert.Equal(32, serverError.ErrorCode);
        Assert.Contains("boom", serverError.Message);
        Assert.True(connection.IsConnected);
    }

    private static void WriteEval(ref MessagePackWriter writer, string expression)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.Expression, expression);
        writer.WriteArrayHeader(0);
    }

    private static CancellationToken Bounded() => new CancellationTokenSource(TimeSpan.FromSeconds(5)).Token;
}
