using System.Text.Json;
using Lab.Report;

namespace Lab.Tests.Report;

public sealed class RateCheckTests
{
    private static RateCheck Check(double wrkRps, double p99) => new("postgres", "author-read", 10_000, wrkRps, p99, 10, 15, "wrk -t1 -c64 -d15s --latency");

    [Theory]
    [InlineData(9_990, 4.0, true)]
    [InlineData(8_600, 9.9, true)]
    [InlineData(8_400, 4.0, false)]
    [InlineData(9_990, 10.5, false)]
    public void ARateAgreesWhenWrkKeptItWithinFifteenPercentAndTheSlo(double wrkRps, double p99, bool agree)
    {
        Assert.Equal(agree, Check(wrkRps, p99).Agree);
        Assert.Equal(agree, Check(wrkRps, p99).Verdict().StartsWith("agree", StringComparison.Ordinal));
    }

    [Fact]
    public void ADisagreementSaysWhichSideFellShort()
    {
        Assert.Contains("wrk's pacing", Check(7_000, 3).Verdict());
        Assert.Contains("over the 10 ms SLO", Check(9_900, 25).Verdict());
    }

    [Fact]
    public void TheReportShowsTheRateCheckBesideTheCrossCheck()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 5, _ => 100, _ => 1, schedule: "const(100, 5s)");
        var tankDir = dir.Run("postgres", "author-read", 10, _ => 1000, _ => 1, under: "crosscheck");
        Directory.Move(tankDir, tankDir + "-x");
        var side = Path.Combine(dir.Path, "crosscheck", "postgres");
        Directory.Move(tankDir + "-x", Path.Combine(side, "tank"));
        File.WriteAllText(Path.Combine(side, "wrk.json"), JsonSerializer.Serialize(new
        {
            storage = "postgres", scenario = "author-read", endpoint = "GET /Author/Get?id=…", connections = 64, duration_s = 10.0,
            requests = 10_000L, rps = 1000.0, cpu_seconds = 2.0, command = "wrk -t1 -c64 -d10s",
        }));
        CrossCheckReader.WriteRate(side, Check(9_500, 6.25));
        ReportBuilder.Build(dir.Path, sloMs: 10);
        var md = dir.Read("report.md");
        Assert.Contains("## Confirmed rates under wrk", md);
        Assert.Contains("| postgres | author-read | 10000 | 9500 | -5.0 % | 6.25 | 15 | agree", md);
        Assert.Contains("<h2>Confirmed rates under wrk</h2>", dir.Read("report.html"));
    }
}
