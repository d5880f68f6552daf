using IntegrationService.Seeding;
namespace IntegrationService.Seeding;

/// <summary>
/// SplitMix64: a tiny PRNG whose output is fixed by its definition, so a seed gives the same data set
/// (the service's seed command) and the same ammo (tank) on every .NET version (System.Random's
/// algorithm is an implementation detail). The one generator both use.
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

    /// <summary>Uniform in [min, max] inclusive (Lemire's multiply-shift; bias below 2^-32 for our ranges).</summary>
    public long Range(long min, long max)
    {
        var span = (ulong)(max - min) + 1;
        return min + (long)Math.BigMul(Next(), span, out _);
    }

    public T Pick<T>(IReadOnlyList<T> items) => items[(int)Range(0, items.Count - 1)];

    /// <summary>True with the given probability (0..1).</summary>
    public bool Chance(double probability) => NextDouble() < probability;

    /// <summary>Uniform in [0, 1), 53 bits.</summary>
    public double NextDouble() => (Next() >> 11) * (1.0 / (1UL << 53));
}
