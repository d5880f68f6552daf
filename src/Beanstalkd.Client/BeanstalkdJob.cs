namespace Beanstalkd.Client;

/// <summary>
/// A job reserved by <see cref="BeanstalkdClient.ReserveAsync"/>: its id (for
/// <see cref="BeanstalkdClient.DeleteAsync"/>) and its body, a copy the caller owns.
/// </summary>
public sealed record BeanstalkdJob(ulong Id, ReadOnlyMemory<byte> Body)
{
    /// <summary>
    /// The connection that reserved the job: the reservation is its own, and ends when it closes
    /// (beanstalkd puts the job back to ready), so the commands on a reservation go on it or nowhere.
    /// </summary>
    internal BeanstalkdConnection? ReservedOn { get; init; }
}
