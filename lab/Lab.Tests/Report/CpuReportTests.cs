using System.Text.Json;
using Tank.Cpu;
using Lab.Report;

namespace Lab.Tests.Report;

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
    public void AProcessIdleInEveryRunHasNoColumnButCountsInTheTotal()
    {
        using var dir = new RunDirectory();
        dir.Run("tarantool-memtx", "author-read", 10, _ => 1000, _ => 1, schedule: "const(1000, 10s)", cpu:
        [
            new CpuUsage("service", 10, 8.0),     // 40 %
            new CpuUsage("tarantool", 11, 1.0),   // 5 %
            new CpuUsage("beanstalkd", 12, 0.08), // 0.4 %: idle here
            new CpuUsage("redis-aof", 13, 0.02),  // 0.1 %: idle here
        ]);
        dir.Run("redis-aof", "queue-write", 10, _ => 1000, _ => 1, schedule: "const(1000, 10s)", cpu:
        [
            new CpuUsage("service", 10, 8.0),
            new CpuUsage("tarantool", 11, 0.01),
            new CpuUsage("beanstalkd", 12, 0.02),
            new CpuUsage("redis-aof", 13, 2.0),   // 10 %: busy in this run, so a column for every run
        ]);
        var runs = ReportBuilder.Build(dir.Path, sloMs: 10);

        Assert.Equal(["architecture", "scenario", "achieved rps", "service: µs/req · % of cores", "tarantool: µs/req · % of cores",
            "redis-aof: µs/req · % of cores", "all: % of cores", "busiest"], ReportSections.CpuColumns(runs));
        var memtx = ReportSections.CpuRows(runs).Single(r => r[0] == "tarantool-memtx");
        Assert.Equal("46 %", memtx[^2]); // 40 + 5 + 0.4 + 0.1, the idle beanstalkd included
        Assert.Contains("has no column", dir.Read("report.md"));
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
