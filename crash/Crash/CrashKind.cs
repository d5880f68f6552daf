using IntegrationService.Authors;

namespace Crash;

/// <summary>
/// What a run writes: authors (created, every fourth write an update), items' location sets,
/// queue messages, or key-value pairs.
/// </summary>
public enum CrashKind
{
    Author,
    Item,
    Queue,
    KeyValue,
    /// <summary>Queue messages read through the leased read (<c>POST /read?lease=</c>, acknowledged after they are logged).</summary>
    LeasedQueue,
}
