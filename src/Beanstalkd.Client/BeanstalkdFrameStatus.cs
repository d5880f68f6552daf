namespace Beanstalkd.Client;

/// <summary>What <see cref="BeanstalkdReplyFrame.TryRead"/> found at the start of the received bytes.</summary>
internal enum BeanstalkdFrameStatus
{
    /// <summary>One whole reply.</summary>
    Complete,

    /// <summary>The start of a reply; more bytes are needed.</summary>
    Incomplete,

    /// <summary>Bytes that are no reply: the connection can no longer be trusted.</summary>
    Malformed,
}
