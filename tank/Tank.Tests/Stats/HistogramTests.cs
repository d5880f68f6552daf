using Tank.Stats;

namespace Tank.Tests.Stats;

public sealed class HistogramTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(255)]
    [InlineData(1_000)]
    [InlineData(12_345)]
    [InlineData(987_654)]
    [InlineData(60_000_000)]
    public void SingleValueComesBackWithinOnePercent(long value)
    {
        var histogram = new Histogram();
        histogram.Record(value);
        histogram.Record(value);
        Assert.InRange(histogram.Percentile(50), value * 0.99, value * 1.01);
    }

    [Fact]
    public void CountAboveCountsTheValuesPastAThreshold()
    {
        var histogram = new Histogram();
        foreach (var us in new long[] { 100, 5_000, 9_000, 10_000, 10_500, 30_000, 2_000_000 }) histogram.Record(us);
        Assert.Equal(3, histogram.CountAbove(10_000));
        Assert.Equal(0, histogram.CountAbove(2_000_000));
        Assert.Equal(7, histogram.CountAbove(0));
        Assert.Equal(0, new Histogram().CountAbove(1));
    }

    [Fact]
    public void PercentilesOfAUniformSpreadAreWithinOnePercent()
    {
        var histogram = new Histogram();
        for (long v = 1; v <= 100_000; v++) histogram.Record(v * 10);
        foreach (var p in new[] { 50.0, 90, 99, 99.9 })
        {
            var exact = p / 100 * 1_000_000;
            Assert.InRange(histogram.Percentile(p), exact * 0.99, exact * 1.01);
        }
        Assert.Equal(1_000_000, histogram.Percentile(100));
        Assert.Equal(10, histogram.Min);
        Assert.Equal(500_005, histogram.Mean);
    }

    [Fact]
    public void ExactBelow256Microseconds()
    {
        var histogram = new Histogram();
        foreach (var v in new long[] { 3, 7, 7, 200 }) histogram.Record(v);
        Assert.Equal(7, histogram.Percentile(50));
        Assert.Equal(200, histogram.Percentile(99));
    }
}
