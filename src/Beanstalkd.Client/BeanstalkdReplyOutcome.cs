namespace Beanstalkd.Client;

/// <summary>How a reply ends its call, and whether the connection stays usable after it.</summary>
internal enum BeanstalkdReplyOutcome
{
    /// <summary>The expected reply: the call succeeds.</summary>
    Success,

    /// <summary>An error word of the protocol (NOT_FOUND, JOB_TOO_BIG, …): the call fails, the connection stays.</summary>
    ServerError,

    /// <summary>A reply that does not fit the command: the call fails and the connection is dropped.</summary>
    Unexpected,
}
