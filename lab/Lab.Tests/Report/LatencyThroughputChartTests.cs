using Lab.Report;
using Tank.Ammo;
using Tank.Runner;

namespace Lab.Tests.Report;

public sealed class LatencyThroughputChartTests
{
    [Fact]
    public void EveryScenarioGetsOneChartWithEveryArchitectureInItsLegend()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "item-read", 10, s => 100 * (s + 1), s => 1 + s, schedule: "line(1, 1000, 10s)");
        dir.Run("tarantool-vinyl", "item-read", 10, s => 100 * (s + 1), _ => 0.5, schedule: "line(1, 1000, 10s)");
        dir.Run("postgres", "item-write", 10, _ => 100, _ => 1, schedule: "const(100, 10s)");
        ReportBuilder.Build(dir.Path, sloMs: 10);

        var read = dir.Read("charts/latency-throughput-item-read.svg");
        Assert.Contains(">postgres</text>", read);
        Assert.Contains(">tarantool-vinyl</text>", read);
        Assert.Contains("latency, ms (log scale)", read);
        // p50 and p99 per architecture, one dot per plotted second (the last, partial one left out).
        Assert.Equal(4, read.Split("<polyline").Length - 1);
        Assert.Equal(18, read.Split("<circle").Length - 1);
        Assert.True(File.Exists(Path.Combine(dir.Path, "charts", "latency-throughput-item-write.svg")));
        Assert.Contains("charts/latency-throughput-item-read.svg", dir.Read("report.md"));
        Assert.Equal(2, dir.Read("report.html").Split("against throughput, one point a second").Length - 1);
    }

    [Fact]
    public void TheDrainAfterTheScheduleAndTheLastSecondAreNotPlotted()
    {
        var run = new RunAnalysis
        {
            Storage = "s", Scenario = "x", Requests = 1, DurationSeconds = 1, AchievedRps = 1, MeanMs = 1,
            QuantilesMs = new Dictionary<string, double>(), MaxMs = 1, Errors = 0, ErrorRate = 0,
            HttpCodes = new Dictionary<int, long>(), NetCodes = new Dictionary<int, long>(), MaxSustainedRps = 0, PeakPlannedRps = 100,
            Seconds = [new(0, 100, 100, 1, 1, 1, 1, 0), new(1, 0, 100, 0, 0, 0, 0, 0), new(2, 100, 100, 1, 1, 1, 1, 0), new(3, 20, 0, 9, 9, 9, 9, 0), new(4, 5, 0, 9, 9, 9, 9, 0)],
        };
        Assert.Equal([0L, 2L], LatencyThroughputChart.Points(run).Select(p => p.Second));
    }
}
