namespace IntegrationService.Seeding;

/// <summary>
/// A tiny, fixed pseudo-random generator (SplitMix64), so the data set depends only on the seed
/// and never on the runtime's System.Random implementation.
/// </summary>
public sealed class SplitMix64(ulong seed)
{
    private ulong _state = seed;

    public ulong Next()
    {
        var z = _state += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    /// <summary>Uniform in [min, max] inclusive.</summary>
    public long NextInRange(long min, long max) => min + (long)(Next() % (ulong)(max - min + 1));

    /// <summary>Uniform in [0, 1).</summary>
    public double NextDouble() => (Next() >> 11) * (1.0 / (1UL << 53));
}
