namespace Lab.Report;

/// <summary>
/// The uncertainty of a cell's median capacity. With several repetitions, a distribution-free
/// interval of order statistics (Conover's): the k-th lowest and k-th highest figures, k as large
/// as keeps the chance that the true median lies between them at 95 % or more; with five or fewer
/// repetitions no k reaches 95 % and the interval is the min–max, whose own coverage
/// (1 − 2^(1−n): 75 % for 3, 93.8 % for 5) is printed with it. With one repetition it is that
/// repetition's bracket: the rate its confirmation held and the lowest rate above that did not
/// (an upper bound, "≤", brackets from 0).
/// </summary>
public sealed record CellInterval(double Low, double High, double? Coverage, string Method)
{
    public const double Wanted = 0.95;

    public static CellInterval? Of(IReadOnlyList<RepeatRecord> repeats)
    {
        if (repeats.Count == 0) return null;
        if (repeats.Count == 1)
        {
            var r = repeats[0];
            return new CellInterval(r.Kind == "at_most" ? r.HeldRps ?? 0 : r.HeldRps ?? r.Rps, r.FailedRps ?? r.Rps, null, "bracket");
        }
        var sorted = repeats.Select(r => (double)r.Rps).Order().ToList();
        var n = sorted.Count;
        var k = 1;
        for (var candidate = n / 2; candidate >= 1; candidate--)
        {
            if (CoverageOf(n, candidate) >= Wanted) { k = candidate; break; }
        }
        return new CellInterval(sorted[k - 1], sorted[n - k], Math.Round(CoverageOf(n, k), 4), k == 1 ? "min-max" : "order statistics");
    }

    /// <summary>P(X(k) ≤ median ≤ X(n−k+1)) for n independent figures: 1 − 2·P(Binomial(n, ½) ≤ k − 1).</summary>
    public static double CoverageOf(int n, int k)
    {
        double tail = 0;
        for (var i = 0; i < k; i++) tail += Choose(n, i);
        return 1 - 2 * tail / Math.Pow(2, n);
    }

    /// <summary>Whether the two intervals leave a gap between them.</summary>
    public bool Separates(CellInterval other) => High < other.Low || other.High < Low;

    private static double Choose(int n, int k)
    {
        double result = 1;
        for (var i = 1; i <= k; i++) result = result * (n - k + i) / i;
        return result;
    }
}
