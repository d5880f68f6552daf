namespace IntegrationService.Storage;

/// <summary>How often a queue hands out a message it accepted, when the service or the server fails mid-read.</summary>
public static class QueueDelivery
{
    /// <summary>Taken and removed in one step (LPOP, DELETE … RETURNING): a read lost in flight loses its message.</summary>
    public const string AtMostOnce = "at-most-once";

    /// <summary>Taken, then acknowledged (reserve, then delete): a read lost in flight is delivered again.</summary>
    public const string AtLeastOnce = "at-least-once";
}
