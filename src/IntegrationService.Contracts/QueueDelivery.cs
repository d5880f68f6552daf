namespace IntegrationService.Storage;

/// <summary>How often a queue read hands out a message it accepted, end to end, when the reader, the service or the server fails mid-read.</summary>
public static class QueueDelivery
{
    /// <summary>Removed (or acknowledged to the broker) before the answer is sent: a read whose answer is lost loses its message; none is handed out twice.</summary>
    public const string AtMostOnce = "at-most-once";

    /// <summary>Held for a lease and removed only when the reader acknowledges it: a message whose reader fails is delivered again, so one may be handed out twice.</summary>
    public const string AtLeastOnce = "at-least-once";

    /// <summary>
    /// At-most-once, except across a failover: a read whose answer is lost loses its message, and a removal the old primary
    /// confirmed may be unknown to the new one, which hands the message out again (neither promise holds through a failover).
    /// </summary>
    public const string AtMostOnceUntilFailover = "at-most-once-until-failover";
}

/// <summary>
/// What each queue read path promises (<see cref="QueueDelivery"/>'s words): <c>GET /read</c>, and
/// the leased read (<c>POST /read?lease=</c>, then <c>POST /ack</c>).
/// </summary>
public sealed record QueueDeliveryPaths(string Read, string Leased)
{
    /// <summary>Every queue's: the store interface and the contract suite hold each queue to both.</summary>
    public static QueueDeliveryPaths OfEveryQueue { get; } = new(QueueDelivery.AtMostOnce, QueueDelivery.AtLeastOnce);
}
