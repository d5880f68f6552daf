namespace Wire.Connections.Tests;

/// <summary>A request waiting on a pipelined connection: its reply, its failure, its caller leaving.</summary>
public sealed class PendingReplyTests
{
    [Fact]
    public async Task AReplyReachesTheCallerUnlessTheCallerLeftFirst()
    {
        var kept = new PendingReply<int>(deadline: 0);
        Assert.True(kept.Succeed(7));
        Assert.Equal(7, await kept.Task);

        using var leave = new CancellationTokenSource();
        var left = new PendingReply<int>(deadline: 0);
        left.CancelWith(leave.Token);
        await leave.CancelAsync();
        Assert.False(left.Succeed(7)); // the reply still came, in its turn, and is dropped
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => left.Task);
    }

    [Fact]
    public async Task AFailureReachesTheCaller()
    {
        var pending = new PendingReply<int>(deadline: 42);
        pending.Fail(new TimeoutException("late"));
        Assert.Equal("late", (await Assert.ThrowsAsync<TimeoutException>(() => pending.Task)).Message);
        Assert.Equal(42, pending.Deadline);
    }

    [Theory]
    [InlineData(20, 5)]
    [InlineData(500, 50)]
    [InlineData(60_000, 100)]
    public void TheSweepIsATenthOfTheTimeoutBetween5And100Ms(int timeoutMs, int sweepMs) =>
        Assert.Equal(TimeSpan.FromMilliseconds(sweepMs), PendingReply.SweepInterval(TimeSpan.FromMilliseconds(timeoutMs)));
}
