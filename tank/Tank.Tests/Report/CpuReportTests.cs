using System.Text.Json;
using Tank.Cpu;
using Tank.Report;

namespace Tank.Tests.Report;

public sealed class CpuReportTests
{
    [Fact]
    public void EachProcessGetsMicrosecondsPerRequestAndAShareOfTheCoresAndTheBusiestIsNamed()
    {
        using var dir = new RunDirectory();
        // 10 s × 1000 rps = 10 000 requests over 10 s on 2 cores.
        dir.Run("postgres", "author-read", 10, _ => 1000, _ => 1, schedule: "const(1000, 10s)", cpu:
        [
            new CpuUsage("service", 10, 8.0),     // 800 µs/req, 40 %
            new CpuUsage("postgresql", 11, 10.0), // 1000 µs/req, 50 %
            new CpuUsage("tank", 12, 1.0),        // 100 µs/req, 5 %
        ]);
        var run = Assert.Single(ReportBuilder.Build(dir.Path, sloMs: 10));
        Assert.Equal(10_000, run.Requests);

        var row = Assert.Single(ReportSections.CpuRows([run]));
        Assert.Equal(["postgres", "author-read", "1000", "800 · 40 %", "1000 · 50 %", "100 · 5 %", "95 %", "postgresql (50 %)"], row);
        Assert.Contains("| postgresql: µs/req · % of cores |", dir.Read("report.md"));
        Assert.Contains("1000 · 50 %", System.Net.WebUtility.HtmlDecode(dir.Read("report.html")));
        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        var cpu = summary.RootElement.GetProperty("runs")[0].GetProperty("cpu");
        Assert.Equal(3, cpu.GetArrayLength());
        Assert.Equal(800, cpu[0].GetProperty("us_per_request").GetDouble());
        Assert.Equal(40, cpu[0].GetProperty("percent_of_cores").GetDouble());
    }

    [Fact]
    public void ARunWithoutCpuFiguresSaysSo()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 5, _ => 100, _ => 1, schedule: "const(100, 5s)");
        ReportBuilder.Build(dir.Path, sloMs: 10);
        Assert.Contains("Not recorded", dir.Read("report.md"));
    }
}
