namespace IntegrationService.Queues;

/// <summary>The queue API's limits, the same on every architecture.</summary>
public static class QueueLimits
{
    /// <summary>
    /// The largest message (a POST body) in bytes; a larger one is a 413. Below Beanstalkd's job
    /// size limit (65 535 bytes, infra/config/beanstalkd.conf) and Kestrel's body limit (64 KiB).
    /// </summary>
    public const int MaxMessageBytes = 16 * 1024;
}
