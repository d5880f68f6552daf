using System.Text.Json;
using Lab.Report;

namespace Lab.Tests.Report;

public sealed class CrossCheckTests
{
    private static CrossCheck Check(double wrk, double tank, double wrkCpu = 1, double tankCpu = 1) =>
        new("postgres", "author-read", "GET /Author/Get", 64, 10, wrk, wrkCpu, 10_000, tank, tankCpu, 10_000, "wrk -t1 -c64 -d10s");

    [Theory]
    [InlineData(10_000, 8_600, true)]
    [InlineData(10_000, 11_500, true)]
    [InlineData(10_000, 8_400, false)]
    [InlineData(10_000, 11_600, false)]
    [InlineData(0, 100, false)]
    public void FifteenPercentEitherWayIsAgreement(double wrk, double tank, bool agree) => Assert.Equal(agree, Check(wrk, tank).Agree);

    [Fact]
    public void ADisagreementSaysWhy()
    {
        Assert.Contains("tank spends more CPU per request", Check(10_000, 7_000, wrkCpu: 0.5, tankCpu: 1.5).Verdict());
        Assert.Contains("without costing more CPU", Check(10_000, 7_000).Verdict());
        Assert.Contains("DISAGREE", Check(10_000, 7_000).Verdict());
        Assert.Contains("wrk is slower without costing more CPU", Check(10_000, 13_000).Verdict());
        Assert.Contains("wrk spends more CPU per request", Check(10_000, 13_000, wrkCpu: 2, tankCpu: 1).Verdict());
        Assert.StartsWith("agree", Check(10_000, 10_500).Verdict());
    }

    [Fact]
    public void TheReportReadsWrkAndTankSidesAndWarnsOnDisagreement()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 5, _ => 100, _ => 1, schedule: "const(100, 5s)");
        foreach (var (storage, wrkRps) in new[] { ("postgres", 1000.0), ("tarantool-memtx", 2000.0) })
        {
            var tankDir = dir.Run(storage, "author-read", 10, _ => 1000, _ => 1, under: "crosscheck");
            Directory.Move(tankDir, tankDir + "-x");
            var side = Path.Combine(dir.Path, "crosscheck", storage);
            Directory.Move(tankDir + "-x", Path.Combine(side, "tank"));
            File.WriteAllText(Path.Combine(side, "wrk.json"), JsonSerializer.Serialize(new
            {
                storage, scenario = "author-read", endpoint = "GET /Author/Get?id=…", connections = 64, duration_s = 10.0,
                requests = (long)(wrkRps * 10), rps = wrkRps, cpu_seconds = 2.0, command = "wrk -t1 -c64 -d10s",
            }));
        }
        ReportBuilder.Build(dir.Path, sloMs: 10);
        var md = dir.Read("report.md");
        Assert.Contains("## Cross-check with wrk", md);
        Assert.Contains("| postgres | GET /Author/Get?id=… | 64 | 10 | 1000 | 1000 | 0 % |", md);
        Assert.Contains("Cross-check: tarantool-memtx", md);
        Assert.DoesNotContain("Cross-check: postgres", md);
        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        Assert.Equal([true, false], summary.RootElement.GetProperty("crosscheck").EnumerateArray().Select(c => c.GetProperty("agree").GetBoolean()));
    }
}
