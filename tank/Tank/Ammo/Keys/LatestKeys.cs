using IntegrationService.Seeding;

namespace Tank.Ammo.Keys;

/// <summary>
/// YCSB's "latest" (SkewedLatestGenerator): a zipfian over recency, rank 0 being the key inserted
/// last. Keys are taken to be inserted in index order, so the newest is index count−1 and a
/// workload that inserts (YCSB D) moves the hot spot along with its inserts.
/// </summary>
public sealed class LatestKeys(double theta) : KeyChooser
{
    private readonly ZipfianRanks _ranks = new(theta);

    public override long Next(SplitMix64 random, long count) => count - 1 - _ranks.Next(random, count);
}
