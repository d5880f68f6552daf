namespace Tank.Ammo;

/// <summary>
/// What the ammo generator needs to know. The defaults match the data set `script/services seed`
/// loads (500 000 items, 100 000 locations) and a block of 1 000 authors starting at id 1.
/// </summary>
public sealed record AmmoOptions
{
    public required Scenario Scenario { get; init; }
    public required string Storage { get; init; }
    public required string Host { get; init; }
    public long Count { get; init; } = 10_000;
    public ulong Seed { get; init; } = 1;
    public bool HotKey { get; init; }
    public long AuthorIdMin { get; init; } = 1;
    public long AuthorIdMax { get; init; } = 1_000;
    public long Items { get; init; } = 500_000;
    public long Locations { get; init; } = 100_000;

    /// <summary>The key-value scenarios' key space: keys key0..key(Keys-1).</summary>
    public long Keys { get; init; } = 100_000;

    /// <summary>kv-put values value&lt;N&gt; (the wrk scripts' style) instead of <see cref="KvValueBytes"/> random bytes.</summary>
    public bool CounterValues { get; init; }

    /// <summary>kv-put writes key0, key1, … in order (a prefill covering the key space) instead of random keys.</summary>
    public bool Sequential { get; init; }

    /// <summary>The size of a random kv-put value, as in the key-value studies' tests.</summary>
    public const int KvValueBytes = 1024;

    /// <summary>The single item the original Go benchmark hammered.</summary>
    public const long HotItemId = 5;
}
