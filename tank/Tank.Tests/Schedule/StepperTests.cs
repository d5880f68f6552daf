using Tank.Schedule;
using Harness.CommandLine;

namespace Tank.Tests.Schedule;

public sealed class StepperTests
{
    [Fact]
    public void RisingLineMatchesTank() =>
        Assert.Equal([0, 618, 1000, 1302, 1561, 1791], ScheduleParser.Parse("line(1,5,2s)").Timestamps());

    [Fact]
    public void FallingLineMatchesTank() =>
        Assert.Equal([0, 208, 438, 697, 1000, 1381], ScheduleParser.Parse("line(5,1,2s)").Timestamps());

    [Fact]
    public void LineFromZeroHasFifteenRequests() =>
        Assert.Equal(15, ScheduleParser.Parse("line(0,10,3s)").Timestamps().Count());

    [Fact]
    public void FractionalConstFloorsCount()
    {
        var plan = ScheduleParser.Parse("const(1.5,10s)");
        Assert.Equal(15, plan.Timestamps().Count());
        Assert.Equal([0, 666, 1333], plan.Timestamps().Take(3));
    }

    [Fact]
    public void StepMakesSeventyFiveRequestsOverTwentyFiveSeconds()
    {
        var plan = ScheduleParser.Parse("step(1,5,1,5s)");
        Assert.Equal(75, plan.Timestamps().Count());
        Assert.Equal(25_000, plan.DurationMs);
    }

    [Fact]
    public void ConcatenatedScheduleSteps58560Requests()
    {
        var plan = ScheduleParser.Parse("line(1, 100, 2m) const(100, 5m) step(100, 200, 25, 30s)");
        Assert.Equal(58_560, plan.Timestamps().Count());
        Assert.Equal(58_560, plan.Count);
    }

    [Fact]
    public void EmptyStepStillTakesItsTime()
    {
        var timestamps = ScheduleParser.Parse("const(0, 10s) const(1, 2s)").Timestamps().ToArray();
        Assert.Equal([10_000, 11_000], timestamps);
    }

    [Fact]
    public void StepsMaySpanLines() =>
        Assert.Equal(4, ScheduleParser.Parse("const(1, 2)\nconst(1, 2s)").Count);

    [Theory]
    [InlineData("1d", 86_400_000)]
    [InlineData("2h", 7_200_000)]
    [InlineData("3m", 180_000)]
    [InlineData("4s", 4_000)]
    [InlineData("5", 5_000)]
    public void DurationsAreWholeUnits(string text, long ms) =>
        Assert.Equal(ms, ScheduleParser.Duration(text, "t", 0));

    [Theory]
    [InlineData("const(10, 500ms)", "no ms")]
    [InlineData("const(10, 0.5s)", "no ms")]
    [InlineData("line(1, 10, 1m), const(10, 1m)", "not commas")]
    [InlineData("ramp(1, 10, 1m)", "unknown step")]
    [InlineData("const(10)", "takes 2 arguments")]
    [InlineData("", "empty")]
    [InlineData("const(-1, 10s)", "non-negative")]
    public void BadSchedulesAreRejectedWithAReason(string schedule, string reason)
    {
        var error = Assert.Throws<InputException>(() => ScheduleParser.Parse(schedule, "load.yaml:7"));
        Assert.Contains(reason, error.Message);
        Assert.StartsWith("load.yaml:7: column ", error.Message);
    }

    [Fact]
    public void CommaErrorNamesItsColumn()
    {
        var error = Assert.Throws<InputException>(() => ScheduleParser.Parse("const(1, 1s), const(2, 1s)", "x"));
        Assert.Contains("column 13", error.Message);
    }
}
