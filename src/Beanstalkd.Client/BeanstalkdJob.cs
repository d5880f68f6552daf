namespace Beanstalkd.Client;

/// <summary>
/// A job reserved by <see cref="BeanstalkdClient.ReserveAsync"/>: its id (for
/// <see cref="BeanstalkdClient.DeleteAsync"/>) and its body, a copy the caller owns.
/// </summary>
public sealed record BeanstalkdJob(ulong Id, ReadOnlyMemory<byte> Body);
