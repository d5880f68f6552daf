namespace Crash.Catalogue;

/// <summary>The catalogue's words for how a queue delivers (IntegrationService's Storage/QueueDelivery.cs).</summary>
public static class Delivery
{
    /// <summary>A read lost in flight loses its message.</summary>
    public const string AtMostOnce = "at-most-once";
    /// <summary>A read lost in flight is delivered again.</summary>
    public const string AtLeastOnce = "at-least-once";
}
