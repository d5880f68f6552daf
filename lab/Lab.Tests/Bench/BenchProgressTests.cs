using Lab.Bench;
using Tank.Runner;

namespace Lab.Tests.Bench;

public sealed class BenchProgressTests
{
    [Fact]
    public void BeforeTheFirstCellThePlannedDurationEstimatesTheRest() =>
        Assert.Equal(10 * 40.0, new BenchProgress(10, 40).SecondsLeft(done: 0, elapsedSeconds: 3));

    [Fact]
    public void AfterwardsThePaceSoFarDoes() =>
        Assert.Equal(6 * 25.0, new BenchProgress(10, 40).SecondsLeft(done: 4, elapsedSeconds: 100));

    [Theory]
    [InlineData(45, "45 s")]
    [InlineData(89.6, "90 s")]
    [InlineData(90, "2 min")]
    [InlineData(1500, "25 min")]
    public void TimeLeftIsInSecondsOrMinutes(double seconds, string text) => Assert.Equal(text, BenchProgress.Format(seconds));

    [Fact]
    public void TheDrainsSecondShowsAsTheLast() =>
        Assert.StartsWith("   x [20/20 s]", LiveStatus.Format("x", new RunProgress(21, 20, 0, 10, 100, 0, 1000)));

    [Fact]
    public void TheStatusLineShowsRateP99SoFarAndErrors() =>
        Assert.Equal("   [3/8] author-read on postgres [12/20 s] 4980 rps (sent 5000), p99 so far 3.25 ms, errors 2 of 41000",
            LiveStatus.Format("[3/8] author-read on postgres", new RunProgress(12, 20, 5000, 4980, 41_000, 2, 3250)));
}
