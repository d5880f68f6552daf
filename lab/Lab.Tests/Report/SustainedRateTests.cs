using Lab.Report;
using Tank.Ammo;
using Tank.Runner;

namespace Lab.Tests.Report;

public sealed class SustainedRateTests
{
    private static SecondPoint Second(long second, long responses, double p99Ms, long errors = 0, double planned = 0) =>
        new(second, responses, planned, p99Ms / 2, p99Ms, p99Ms, p99Ms, errors);

    [Fact]
    public void TheRateIsTheLowestGoodSecondOfTheBestWindow()
    {
        var seconds = new[] { Second(0, 100, 1), Second(1, 200, 1), Second(2, 300, 1), Second(3, 400, 1), Second(4, 500, 50), Second(5, 600, 50) };
        Assert.Equal(300, PhoutAnalyzer.MaxSustained(seconds, sloMs: 10));
    }

    [Fact]
    public void OneLuckySecondDoesNotCount()
    {
        var seconds = new[] { Second(0, 100, 1), Second(1, 100, 1), Second(2, 900, 50), Second(3, 5000, 1), Second(4, 900, 50) };
        Assert.Equal(100, PhoutAnalyzer.MaxSustained(seconds, sloMs: 10));
    }

    [Fact]
    public void OneStraySecondOverTheSloIsToleratedTwoAreNot()
    {
        var one = new[] { Second(0, 900, 1), Second(1, 900, 11), Second(2, 900, 1), Second(3, 900, 1) };
        Assert.Equal(900, PhoutAnalyzer.MaxSustained(one, sloMs: 10));
        var two = new[] { Second(0, 900, 1), Second(1, 900, 11), Second(2, 900, 11), Second(3, 900, 1) };
        Assert.Equal(0, PhoutAnalyzer.MaxSustained(two, sloMs: 10));
    }

    [Fact]
    public void ErrorsOfAThousandthOrMoreMakeASecondBad()
    {
        var seconds = new[] { Second(0, 1000, 1, errors: 1), Second(1, 1000, 1, errors: 1), Second(2, 1000, 1) };
        Assert.Equal(0, PhoutAnalyzer.MaxSustained(seconds, sloMs: 10));
        var fewer = new[] { Second(0, 10_000, 1, errors: 9), Second(1, 10_000, 1, errors: 9), Second(2, 10_000, 1) };
        Assert.Equal(10_000, PhoutAnalyzer.MaxSustained(fewer, sloMs: 10));
    }

    [Fact]
    public void MissingSecondsAreNotBridged()
    {
        var seconds = new[] { Second(0, 500, 1), Second(1, 500, 1), Second(5, 500, 1) };
        Assert.Equal(0, PhoutAnalyzer.MaxSustained(seconds, sloMs: 10));
    }

    [Theory]
    [InlineData(6000, 6000, "≥ 6000")]
    [InlineData(5950, 6000, "≥ 5950")]
    [InlineData(3098, 6000, "3098")]
    [InlineData(0, 0, "0")]
    public void ARateThatHeldAtTheTopOfTheRampIsShownAsALowerBound(double sustained, double peakPlanned, string shown)
    {
        var run = new RunAnalysis
        {
            Storage = "s", Scenario = "item-read", Requests = 1, DurationSeconds = 1, AchievedRps = 1, MeanMs = 1,
            QuantilesMs = new Dictionary<string, double>(), MaxMs = 1, Errors = 0, ErrorRate = 0,
            HttpCodes = new Dictionary<int, long>(), NetCodes = new Dictionary<int, long>(),
            MaxSustainedRps = sustained, PeakPlannedRps = peakPlanned, Seconds = [],
        };
        Assert.Equal(shown, ReportText.Sustained(run));
    }
}
