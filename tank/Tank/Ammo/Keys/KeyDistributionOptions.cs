namespace Tank.Ammo.Keys;

/// <summary>A key distribution and its parameters, with YCSB's defaults.</summary>
public sealed record KeyDistributionOptions
{
    public KeyDistribution Distribution { get; init; } = KeyDistribution.Uniform;

    /// <summary>The zipfian constant of zipfian and latest; YCSB's is 0.99. Must lie in (0, 1).</summary>
    public double ZipfTheta { get; init; } = 0.99;

    /// <summary>hotspot: the share of the keys that is hot (YCSB's hotspotdatafraction), in (0, 1].</summary>
    public double HotspotFraction { get; init; } = 0.2;

    /// <summary>hotspot: the share of the operations that go to the hot keys (YCSB's hotspotopnfraction), in [0, 1].</summary>
    public double HotspotOps { get; init; } = 0.8;
}
