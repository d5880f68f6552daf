using IntegrationService.Seeding;

namespace Tank.Ammo.Keys;

/// <summary>
/// Picks the index of the next key among <c>count</c> keys (0 ≤ index &lt; count); the caller maps
/// the index onto its ids (author id = first id + index, kv key = key&lt;index&gt;). The count is
/// passed each time because a workload that inserts (YCSB D) grows its key space as it goes.
/// </summary>
public abstract class KeyChooser
{
    public abstract long Next(SplitMix64 random, long count);

    public static KeyChooser Create(KeyDistributionOptions options) => options.Distribution switch
    {
        KeyDistribution.Zipfian => new ScrambledZipfianKeys(options.ZipfTheta),
        KeyDistribution.Latest => new LatestKeys(options.ZipfTheta),
        KeyDistribution.Hotspot => new HotspotKeys(options.HotspotFraction, options.HotspotOps),
        _ => new UniformKeys(),
    };
}
