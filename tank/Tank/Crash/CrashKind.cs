namespace Tank.Crash;

/// <summary>What <c>tank crash</c> writes: authors (created, every fourth write an update) or items' location sets.</summary>
public enum CrashKind
{
    Author,
    Item,
}
