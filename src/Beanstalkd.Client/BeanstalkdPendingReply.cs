namespace Beanstalkd.Client;

/// <summary>
/// A command sent and waiting for its reply: what it was (so the reply can be read as its
/// answer), when it stops waiting (<see cref="Environment.TickCount64"/>), and the caller's
/// cancellation. A cancelled call stays in the queue: its reply still comes, in its turn, and is
/// then dropped (or, for a reserved job, handed back).
/// </summary>
internal sealed class BeanstalkdPendingReply(BeanstalkdCommand command, long deadline)
    : TaskCompletionSource<BeanstalkdReply>(TaskCreationOptions.RunContinuationsAsynchronously)
{
    private CancellationTokenRegistration _cancellation;

    public BeanstalkdCommand Command { get; } = command;

    public long Deadline { get; } = deadline;

    /// <summary>A reply nobody waits for (a release sent by the client itself): done at once, so no failure of it goes unobserved.</summary>
    public static BeanstalkdPendingReply Unawaited(BeanstalkdCommand command, long deadline)
    {
        var pending = new BeanstalkdPendingReply(command, deadline);
        pending.TrySetResult(BeanstalkdReply.None);
        return pending;
    }

    /// <summary>Ends the wait when <paramref name="cancellationToken"/> fires. Call before the command is queued.</summary>
    public void CancelWith(CancellationToken cancellationToken)
    {
        if (!cancellationToken.CanBeCanceled) return;
        _cancellation = cancellationToken.UnsafeRegister(
            static (state, token) => ((BeanstalkdPendingReply)state!).TrySetCanceled(token), this);
    }

    /// <summary>Hands the reply to the caller; false when the caller stopped waiting (cancelled).</summary>
    public bool Succeed(BeanstalkdReply reply)
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
