namespace Wire.Connections;

/// <summary>
/// A request sent on a pipelined connection and waiting for its reply, in the connection's FIFO: when
/// it stops waiting (<see cref="Deadline"/>, <see cref="Environment.TickCount64"/>) and the caller's
/// cancellation. A cancelled request stays in the FIFO: its reply still comes, in its turn, and is then
/// dropped. Continuations run on the thread pool, never on the connection's read loop.
/// </summary>
public class PendingReply<TReply>(long deadline) : TaskCompletionSource<TReply>(TaskCreationOptions.RunContinuationsAsynchronously)
{
    private CancellationTokenRegistration _cancellation;

    public long Deadline { get; } = deadline;

    /// <summary>Ends the wait when <paramref name="cancellationToken"/> fires. Call before the request is queued.</summary>
    public void CancelWith(CancellationToken cancellationToken)
    {
        if (!cancellationToken.CanBeCanceled) return;
        _cancellation = cancellationToken.UnsafeRegister(static (state, token) => ((PendingReply<TReply>)state!).TrySetCanceled(token), this);
    }

    /// <summary>Hands the reply to the caller; false when the caller stopped waiting (cancelled).</summary>
    public bool Succeed(TReply reply)
    {
        var delivered = TrySetResult(reply);
        _cancellation.Unregister();
        return delivered;
    }

    public void Fail(Exception error)
    {
        TrySetException(error);
        _cancellation.Unregister();
    }
}

/// <summary>How a pipelined connection checks its waiting requests against their deadlines.</summary>
public static class PendingReply
{
    /// <summary>
    /// One timer per connection rather than one per request: every tenth of the timeout, between 5 and
    /// 100 ms, so a request fails up to this much after its deadline.
    /// </summary>
    public static TimeSpan SweepInterval(TimeSpan timeout) => TimeSpan.FromMilliseconds(Math.Clamp(timeout.TotalMilliseconds / 10, 5, 100));
}
