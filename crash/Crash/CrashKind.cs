namespace Crash;

/// <summary>What <c>crash run</c> writes: authors (created, every fourth write an update) or items' location sets.</summary>
public enum CrashKind
{
    Author,
    Item,
}
