using Lab.Metrics;

namespace Lab.Tests.Metrics;

public sealed class HistogramQuantileTests
{
    private static readonly (double, double)[] Buckets =
        [(0.001, 0), (0.002, 100), (0.005, 900), (0.01, 1000), (double.PositiveInfinity, 1000)];

    [Fact]
    public void InterpolatesInsideTheBucketHoldingTheRank()
    {
        // Rank 500 lies in (0.002, 0.005], 400 of its 800 observations in.
        Assert.Equal(0.0035, HistogramQuantile.Estimate(0.5, Buckets)!.Value, 9);
        // Rank 990 lies in (0.005, 0.01], 90 of its 100 in.
        Assert.Equal(0.0095, HistogramQuantile.Estimate(0.99, Buckets)!.Value, 9);
    }

    [Fact]
    public void TheFirstBucketStartsAtZero() =>
        Assert.Equal(0.0005, HistogramQuantile.Estimate(0.5, [(0.001, 10), (double.PositiveInfinity, 10)])!.Value, 9);

    [Fact]
    public void ARankBeyondTheLastFiniteBoundGivesThatBound() =>
        Assert.Equal(5, HistogramQuantile.Estimate(0.99, [(1, 10), (5, 50), (double.PositiveInfinity, 100)]));

    [Fact]
    public void AnEmptyHistogramHasNoQuantile()
    {
        Assert.Null(HistogramQuantile.Estimate(0.5, []));
        Assert.Null(HistogramQuantile.Estimate(0.5, [(0.001, 0), (double.PositiveInfinity, 0)]));
    }
}
