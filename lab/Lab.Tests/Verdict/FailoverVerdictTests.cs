using Harness.CommandLine;
using Lab.Commands;
using Lab.Tests.Compare;
using Lab.Verdicts;
using static Lab.Tests.Verdicts.VerdictCommandTests;
using Cell = Lab.Tests.Compare.SummaryFixture.Cell;

namespace Lab.Tests.Verdicts;

/// <summary>
/// lab verdict --durability failover [--max-unavailable-s N]: the crash test's primary-kill and
/// primary-stop rows of a replicated architecture, judged on loss and on how long writes failed.
/// </summary>
public sealed class FailoverVerdictTests
{
    // redis-sentinel is replicated (failover rows); redis is a lone server (crash rows only).
    private static string Replicated(SummaryFixture f) => f.Report("replicated", 10,
        new Cell("redis-sentinel", "kv-put", 8000, 2.0, CpuUs: 120),
        new Cell("redis", "kv-put", 12000, 1.0, CpuUs: 90));

    private static (int Code, string Out, string Err) Failover(SummaryFixture f, string crash, params string[] more) =>
        Verdict([Replicated(f), "--slo-ms", "10", "--rate", "5000", "--durability", "failover", "--crash", crash, .. more]);

    // Five clean failovers of redis-sentinel, back within 2.5 to 4.1 s; redis survived a kill -9.
    private static string CleanFailovers(params string[] more) => string.Join(",",
        [
            Row("redis-sentinel", "primary-kill", 3000, unavailableS: "3.1"),
            Row("redis-sentinel", "primary-kill", 3000, unavailableS: "4.1"),
            Row("redis-sentinel", "primary-kill", 3000, unavailableS: "2.5"),
            Row("redis-sentinel", "primary-stop", 3000, unavailableS: "3.4"),
            Row("redis-sentinel", "primary-stop", 3000, unavailableS: "3.9"),
            Row("redis", "db-kill", 3000, unavailableS: "0"),
            .. more,
        ]);

    [Fact]
    public void AReplicatedArchitectureWhoseFailoversLostNothingAndCameBackInTimeQualifies()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Failover(f, Crash(f, CleanFailovers()), "--max-unavailable-s", "5");
        Assert.Equal(0, code);
        Assert.Contains("Which architectures hold 5000 requests/s at p99 ≤ 10.0 ms in every scenario measured and lose no acknowledged write on a failover, with writes back within 5 s?", output);
        Assert.Contains("Qualifies: redis-sentinel.", output);
        Assert.Contains("no loss (5 runs), unavailable median 3.4 s, max 4.1 s", output);
        // The lone server's kill -9 is no failover: not measured, however clean.
        Assert.Contains("failover: not measured (the crash results hold no failover run for it)", output.Split('\n').Single(l => l.Contains("redis ")));
    }

    [Fact]
    public void TheRowsOfSeveralCrashFoldersAreJudgedTogether()
    {
        using var f = new SummaryFixture();
        // redis-sentinel's failovers in one folder, a loss of another run of them in a second: both count.
        var clean = Crash(f, CleanFailovers());
        var lossy = f.Raw("crash-more", "[" + Row("redis-sentinel", "primary-partition", 3000, lost: 7, unavailableS: "1.0") + "]");
        var (code, output, _) = Failover(f, clean, "--crash", lossy, "--max-unavailable-s", "5");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("failover: redis-sentinel author primary-partition: 7 lost of 3000 acknowledged", output);
        Assert.Contains("loss in 1 of 6", output);
    }

    [Fact]
    public void SeveralLossyRunsOfOneFaultAreOneFindingWithTheirSums()
    {
        using var f = new SummaryFixture();
        var crash = Crash(f, CleanFailovers(
            Row("redis-sentinel", "primary-partition", 3000, lost: 7, unavailableS: "1.0"),
            Row("redis-sentinel", "primary-partition", 2900, lost: 5, unavailableS: "1.2"),
            Row("redis-sentinel", "primary-partition", 3100, unavailableS: "0.9")));
        var (code, output, _) = Failover(f, crash, "--max-unavailable-s", "5");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("failover: redis-sentinel author primary-partition: 12 lost of 5900 acknowledged, in 2 of 3 runs", output);
        Assert.DoesNotContain("7 lost", output);
        Assert.Contains("loss in 2 of 8", output);
    }

    [Fact]
    public void ALostWriteOnAFailoverDisqualifies()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Failover(f, Crash(f, CleanFailovers(Row("redis-sentinel", "primary-kill", 3000, lost: 2, unavailableS: "3.0"))), "--max-unavailable-s", "5");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("failover: redis-sentinel author primary-kill: 2 lost of 3000 acknowledged", output);
        Assert.Contains("loss in 1 of 6, unavailable median 3.25 s, max 4.1 s", output);
    }

    [Fact]
    public void WritesFailingLongerThanTheBoundDisqualifyOnlyWithTheBound()
    {
        using var f = new SummaryFixture();
        var crash = Crash(f, CleanFailovers(Row("redis-sentinel", "primary-stop", 3000, unavailableS: "7.25")));
        var (code, output, _) = Failover(f, crash, "--max-unavailable-s", "5");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("failover: redis-sentinel author primary-stop: writes failed for 7.25 s, more than 5 s", output);
        Assert.Contains("no loss (6 runs), unavailable median 3.65 s, max 7.25 s", output);
        // No loss, so without a bound it qualifies; and a bound above the worst run holds.
        Assert.Equal(0, Failover(f, crash).Code);
        Assert.Equal(0, Failover(f, crash, "--max-unavailable-s", "7.25").Code);
    }

    [Theory]
    [InlineData("null")]
    [InlineData(null)] // absent
    public void ARunWhoseWritesNeverCameBackFailsAnyBound(string? unavailableS)
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Failover(f, Crash(f, CleanFailovers(Row("redis-sentinel", "primary-kill", 3000, unavailableS: unavailableS))), "--max-unavailable-s", "60");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("failover: redis-sentinel author primary-kill: writes never came back (unavailable_s null or absent)", output);
        Assert.Contains("max never back", output);
    }

    [Fact]
    public void NoFailoverRowsIsNotMeasuredAndCrashRowsDoNotCount()
    {
        using var f = new SummaryFixture();
        var crash = Crash(f, string.Join(",", Row("redis-sentinel", "db-kill", 3000, unavailableS: "1.0"), Row("redis", "db-kill", 3000)));
        var (code, output, _) = Failover(f, crash);
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("No architecture qualifies. Closest: redis (2.40× the rate)", output);
        var rows = output.Split('\n').Where(l => l.StartsWith("redis", StringComparison.Ordinal)).ToList();
        Assert.Equal(2, rows.Count);
        Assert.All(rows, row => Assert.Contains("failover: not measured (the crash results hold no failover run for it)", row));
    }

    [Fact]
    public void CrashDurabilityDoesNotCountFailoverRows()
    {
        using var f = new SummaryFixture();
        var crash = Crash(f, string.Join(",", Row("redis-sentinel", "primary-kill", 3000, unavailableS: "3.0"), Row("redis-sentinel", "x", 3000, faultField: "primary-stop", unavailableS: "3.0"),
            Row("redis", "db-kill", 3000)));
        var (code, output, _) = Verdict(Replicated(f), "--slo-ms", "10", "--rate", "5000", "--durability", "crash", "--crash", crash);
        Assert.Equal(0, code);
        Assert.Contains("Qualifies: redis.", output);
        Assert.Contains("crash: not measured (the crash results hold no crash run for it)", output.Split('\n').Single(l => l.Contains("redis-sentinel")));
        Assert.DoesNotContain("unavailable", output); // a lone server's crash is judged on loss alone
        Assert.False(DurabilityClass.Crash.Covers("primary-kill"));
        Assert.False(DurabilityClass.Crash.Covers("primary-stop"));
        Assert.False(DurabilityClass.Failover.Covers("db-kill"));
        Assert.True(DurabilityClass.Failover.Covers("primary-partition"));
        Assert.True(DurabilityClass.Failover.Covers("primary-partition-oneway"));
        Assert.False(DurabilityClass.Crash.Covers("primary-partition"));
    }

    [Fact]
    public void MaxUnavailableWithoutFailoverDurabilityIsRefused()
    {
        using var f = new SummaryFixture();
        var report = Replicated(f);
        var crash = Crash(f, CleanFailovers());
        var (code, _, error) = Verdict(report, "--slo-ms", "10", "--rate", "5000", "--max-unavailable-s", "5");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("--max-unavailable-s bounds how long writes fail on a failover: it needs --durability failover", error);
        (code, _, error) = Verdict(report, "--slo-ms", "10", "--rate", "5000", "--durability", "crash", "--crash", crash, "--max-unavailable-s", "5");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("needs --durability failover", error);
        Assert.Equal(Cli.InputError, Failover(f, crash, "--max-unavailable-s", "0").Code);
        Assert.Equal(Cli.InputError, Failover(f, crash, "--max-unavailable-s", "soon").Code);
    }

    [Fact]
    public void AnUnavailabilityThatIsNotANumberIsBadInput()
    {
        using var f = new SummaryFixture();
        var (code, _, error) = Failover(f, Crash(f, Row("redis-sentinel", "primary-kill", 3000, unavailableS: "\"4 s\"")));
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("[0].unavailable_s: is not a number", error);
    }
}
