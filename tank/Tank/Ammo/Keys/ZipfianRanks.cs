using Harness.CommandLine;
using IntegrationService.Seeding;

namespace Tank.Ammo.Keys;

/// <summary>
/// Zipfian ranks (rank 0 the most popular) by the algorithm of Gray et al., "Quickly Generating
/// Billion-Record Synthetic Databases" (SIGMOD 1994), which YCSB's ZipfianGenerator uses: one
/// uniform draw u, then rank 0 when u·ζ(n) &lt; 1, rank 1 when below 1 + 0.5^θ, otherwise
/// ⌊n·(η·u − η + 1)^α⌋ with α = 1/(1−θ) and η = (1 − (2/n)^(1−θ)) / (1 − ζ(2)/ζ(n)).
/// ζ(n) = Σ 1/i^θ for i = 1..n is summed once and extended when the item count grows (inserts).
/// </summary>
public sealed class ZipfianRanks
{
    // Above this many items ζ(n) is summed exactly up to it and the tail is estimated
    // (Euler–Maclaurin; relative error far below 1e-9), so a billion ids cost no billion powers.
    private const long ExactTerms = 2_000_000;

    private readonly double _theta;
    private readonly double _alpha;
    private readonly double _zeta2;
    private long _items;
    private double _zetaN;
    private double _eta;

    public ZipfianRanks(double theta)
    {
        if (!(theta > 0 && theta < 1)) throw new InputException($"--zipf-theta: {theta} must lie strictly between 0 and 1");
        _theta = theta;
        _alpha = 1 / (1 - theta);
        _zeta2 = 1 + Math.Pow(0.5, theta);
    }

    /// <summary>A rank in [0, <paramref name="items"/>), 0 the most frequent.</summary>
    public long Next(SplitMix64 random, long items)
    {
        if (items != _items) Resize(items);
        var u = random.NextDouble();
        var uz = u * _zetaN;
        if (uz < 1) return 0;
        if (uz < _zeta2 || items == 1) return Math.Min(1, items - 1);
        return Math.Min(items - 1, (long)(items * Math.Pow(_eta * u - _eta + 1, _alpha)));
    }

    /// <summary>ζ(n) for this θ.</summary>
    public double Zeta(long n) => n <= ExactTerms ? Sum(1, n) : Sum(1, ExactTerms) + Tail(ExactTerms, n);

    private void Resize(long items)
    {
        // Growth by a few inserts at a time adds their terms; anything else sums afresh.
        _zetaN = items > _items && _items > 0 && items - _items <= ExactTerms ? _zetaN + Sum(_items + 1, items) : Zeta(items);
        _items = items;
        _eta = (1 - Math.Pow(2.0 / items, 1 - _theta)) / (1 - _zeta2 / _zetaN);
    }

    private double Sum(long from, long to)
    {
        double sum = 0;
        for (var i = from; i <= to; i++) sum += 1 / Math.Pow(i, _theta);
        return sum;
    }

    // Σ f(i) for i = m+1..n ≈ ∫ₘⁿ f + (f(n) − f(m))/2 + (f′(n) − f′(m))/12, f(x) = x^−θ.
    private double Tail(long m, long n)
    {
        double F(double x) => Math.Pow(x, -_theta);
        double D(double x) => -_theta * Math.Pow(x, -_theta - 1);
        var integral = (Math.Pow(n, 1 - _theta) - Math.Pow(m, 1 - _theta)) / (1 - _theta);
        return integral + (F(n) - F(m)) / 2 + (D(n) - D(m)) / 12;
    }
}
