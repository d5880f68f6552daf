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
}
