using Tank.Ammo.Keys;
using Tank.Ammo.Workloads;

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

    /// <summary>How keyed scenarios pick their keys; null = uniform, or the workload's own (YCSB's) when one is given.</summary>
    public KeyDistribution? Distribution { get; init; }

    /// <summary>The zipfian constant of zipfian and latest (YCSB's 0.99).</summary>
    public double ZipfTheta { get; init; } = 0.99;

    /// <summary>hotspot: the share of keys that is hot.</summary>
    public double HotspotFraction { get; init; } = 0.2;

    /// <summary>hotspot: the share of requests that go to the hot keys.</summary>
    public double HotspotOps { get; init; } = 0.8;

    /// <summary>A YCSB workload run on the scenario's API instead of the scenario's own mix; null for the scenario alone.</summary>
    public Workload? Workload { get; init; }

    /// <summary>The key distribution with its parameters, <paramref name="fallback"/> when none was chosen.</summary>
    public KeyDistributionOptions KeyDistributionOr(KeyDistribution fallback) => new()
    {
        Distribution = Distribution ?? fallback,
        ZipfTheta = ZipfTheta,
        HotspotFraction = HotspotFraction,
        HotspotOps = HotspotOps,
    };

    /// <summary>The size of a random kv-put value, as in the key-value studies' tests.</summary>
    public const int KvValueBytes = 1024;

    /// <summary>The single item the original Go benchmark hammered.</summary>
    public const long HotItemId = 5;
}
