using IntegrationService.Seeding;

namespace Tank.Ammo.Keys;

/// <summary>
/// YCSB's default zipfian: a zipfian rank, hashed (FNV-1a, 64 bits, over the rank's 8 bytes) onto
/// the key space, so the popular keys are spread over it instead of being its first ids (which
/// would all sit in one page, one shard, one hash slot). As in YCSB, two ranks can hash to the same
/// key. Unlike YCSB, which draws ranks among 10^10 items and folds them onto the keys (a constant
/// ζ it can precompute), the ranks are drawn among the keys themselves, so the skew is that of a
/// zipfian over the actual key count: with θ = 0.99 and 100 000 keys the hottest 1 % get over
/// half the requests.
/// </summary>
public sealed class ScrambledZipfianKeys(double theta) : KeyChooser
{
    private readonly ZipfianRanks _ranks = new(theta);

    public override long Next(SplitMix64 random, long count) => (long)(Fnv1a64(_ranks.Next(random, count)) % (ulong)count);

    public static ulong Fnv1a64(long value)
    {
        var hash = 0xCBF29CE484222325UL;
        for (var i = 0; i < 8; i++)
        {
            hash ^= (ulong)(value >> (8 * i)) & 0xFF;
            hash *= 0x100000001B3UL;
        }
        return hash;
    }
}
