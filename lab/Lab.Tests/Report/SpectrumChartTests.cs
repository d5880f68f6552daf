using Lab.Report;
using Tank.Stats;

namespace Lab.Tests.Report;

/// <summary>The spectrum chart: latency by percentile on HdrHistogram's 1/(1−p) axis, one line per architecture.</summary>
public sealed class SpectrumChartTests
{
    [Fact]
    public void TheAxisPutsEachNineADecadeApart()
    {
        Assert.Equal(0, SpectrumChart.PercentileAt(0), 9);
        Assert.Equal(90, SpectrumChart.PercentileAt(1), 9);
        Assert.Equal(99.9, SpectrumChart.PercentileAt(3), 9);
        Assert.Equal(3, SpectrumChart.Decades(1_000), 9);
        Assert.Equal(5, SpectrumChart.Decades(10_000_000), 9); // capped at p99.999
        Assert.Equal(["0 %", "90 %", "99 %", "99.9 %", "99.999 %"], new[] { 0, 1, 2, 3, 5 }.Select(SpectrumChart.Label));
    }

    [Fact]
    public void ALineFollowsTheRunsPercentilesAndEndsWhereItsCountStopsResolvingThem()
    {
        var spectrum = new LatencyHistogram();
        for (var i = 1; i <= 1000; i++) spectrum.Record(i * 1000L); // 1 … 1000 ms
        var points = SpectrumChart.Points(spectrum);
        Assert.Equal(3, points[^1].X, 6);
        var p90 = points.First(p => Math.Abs(p.X - 1) < 1e-6);
        var p99 = points.First(p => Math.Abs(p.X - 2) < 1e-6);
        Assert.InRange(p90.Ms, 895, 905);
        Assert.InRange(p99.Ms, 985, 995);
        Assert.True(points.Zip(points.Skip(1)).All(p => p.Second.Ms >= p.First.Ms));
    }

    [Fact]
    public void TheReportHasASpectrumChartPerScenarioWithALinePerArchitecture()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, _ => 100, s => 2 + s, "const(100, 10s)");
        dir.Run("redis", "author-read", 10, _ => 100, _ => 1, "const(100, 10s)");
        ReportBuilder.Build(dir.Path, 10);
        var svg = dir.Read(Path.Combine("charts", "spectrum-author-read.svg"));
        Assert.Equal(2, svg.Split("<polyline").Length - 1);
        Assert.Contains("99 %", svg);
        Assert.Contains("<h2>Latency spectrum</h2>", dir.Read("report.html"));
        Assert.Contains("![author-read spectrum](charts/spectrum-author-read.svg)", dir.Read("report.md"));
        Assert.True(File.Exists(Path.Combine(dir.Path, "runs", "redis", "author-read", "latency.hgrm")));
    }
}
