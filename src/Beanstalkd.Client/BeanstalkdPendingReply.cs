using Wire.Connections;

namespace Beanstalkd.Client;

/// <summary>
/// A command sent and waiting for its reply (<see cref="PendingReply{TReply}"/>), with what it was, so
/// the reply can be read as its answer. A cancelled call's reply is dropped in its turn (or, for a
/// reserved job, handed back).
/// </summary>
internal sealed class BeanstalkdPendingReply(BeanstalkdCommand command, long deadline) : PendingReply<BeanstalkdReply>(deadline)
{
    public BeanstalkdCommand Command { get; } = command;

    /// <summary>A reply nobody waits for (a release sent by the client itself): done at once, so no failure of it goes unobserved.</summary>
    public static BeanstalkdPendingReply Unawaited(BeanstalkdCommand command, long deadline)
    {
        var pending = new BeanstalkdPendingReply(command, deadline);
        pending.TrySetResult(BeanstalkdReply.None);
        return pending;
    }
}
