namespace Lab.Metrics;

/// <summary>
/// A quantile estimated from a histogram's cumulative buckets as Prometheus's <c>histogram_quantile</c>
/// does: find the bucket holding the rank, interpolate linearly inside it (from 0 for the first).
/// A rank in the +Inf bucket gives the highest finite bound.
/// </summary>
public static class HistogramQuantile
{
    /// <param name="buckets">Upper bound (le) and cumulative count, in any order.</param>
    /// <returns>The estimate, or null when the histogram is empty.</returns>
    public static double? Estimate(double quantile, IReadOnlyList<(double UpperBound, double Count)> buckets)
    {
        var sorted = buckets.OrderBy(b => b.UpperBound).ToList();
        if (sorted.Count == 0) return null;
        var total = sorted[^1].Count;
        if (total <= 0) return null;
        var rank = quantile * total;
        double lowerBound = 0, lowerCount = 0;
        foreach (var (upperBound, count) in sorted)
        {
            if (count >= rank && count > lowerCount)
            {
                if (double.IsPositiveInfinity(upperBound)) return lowerBound;
                return lowerBound + (upperBound - lowerBound) * (rank - lowerCount) / (count - lowerCount);
            }
            lowerBound = upperBound;
            lowerCount = count;
        }
        return lowerBound;
    }
}
