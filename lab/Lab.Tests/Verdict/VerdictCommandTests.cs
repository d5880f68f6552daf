using Tank.Commands;
using Lab.Report;
using Lab.Tests.Compare;
using Lab.Tests.Report;
using Harness.CommandLine;
using Lab.Commands;
using Cell = Lab.Tests.Compare.SummaryFixture.Cell;

namespace Lab.Tests.Verdicts;

/// <summary>lab verdict: who holds a rate at an SLO (and survives a fault class), ranked; exit 0 / 1 when nobody / 2 bad input.</summary>
public sealed class VerdictCommandTests
{
    internal static (int Code, string Out, string Err) Verdict(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var code = LabCli.Run(["verdict", .. args], output, error);
        return (code, output.ToString(), error.ToString());
    }

    private static string ThreeArchitectures(SummaryFixture f) => f.Report("report", 10,
        new Cell("postgres", "kv-get", 4000, 4.0, CpuUs: 300),
        new Cell("redis", "kv-get", 12000, 1.0, CpuUs: 90),
        new Cell("tarantool-memtx", "kv-get", 12000, 0.8, CpuUs: 60),
        new Cell("postgres", "author-read", 5000, 3.0),
        new Cell("tarantool-memtx", "author-read", 15000, 1.0));

    // script/crashtest's summary.json: an array of tank crash results, labelled "<storage> <kind> <fault>".
    internal static string Crash(SummaryFixture f, string rows) => f.Raw("crash", "[" + rows + "]");

    // unavailableS: the JSON of unavailable_s as written ("3.4", "null"); left out when null.
    internal static string Row(string storage, string fault, long acked, long lost = 0, string? faultField = null, string? unavailableS = null) =>
        $"{{\"label\": \"{storage} author {fault}\", \"storage\": \"{storage}\", \"kind\": \"author\", {(faultField is null ? "" : $"\"fault\": \"{faultField}\", ")}" +
        $"{(unavailableS is null ? "" : $"\"unavailable_s\": {unavailableS}, ")}" +
        $"\"acked\": {acked}, \"lost\": {lost}, \"stale\": 0, \"changed\": 0, \"unverified\": 0, \"cache_disagreements\": null, \"read_back_ready_s\": 12.5}}";

    [Fact]
    public void ATargetSomeMeetNamesThemRankedByHeadroomThenCpu()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Verdict(ThreeArchitectures(f), "--slo-ms", "10", "--rate", "3000", "--workload", "kv-get");
        Assert.Equal(0, code);
        Assert.Contains("Qualifies: tarantool-memtx, redis, postgres", output); // equal headroom: less CPU first
        Assert.Contains("4.00×", output);
        Assert.Contains("qualifies (#1)", output);
    }

    [Fact]
    public void WithoutAWorkloadEveryScenarioMustHoldTheRate()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Verdict(ThreeArchitectures(f), "--slo-ms", "10", "--rate", "4500");
        Assert.Equal(0, code);
        Assert.Contains("Qualifies: tarantool-memtx.", output);
        Assert.Contains("redis", output);
        Assert.Contains("author-read not measured", output);
        Assert.Contains("kv-get: holds 4000 rps at p99 ≤ 10.0 ms, below 4500", output);
    }

    [Fact]
    public void ATargetNobodyMeetsSaysSoAndNamesTheClosestAndWhy()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Verdict(ThreeArchitectures(f), "--slo-ms", "10", "--rate", "20000", "--workload", "kv-get");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("No architecture qualifies. Closest: tarantool-memtx (0.60× the rate), which failed because kv-get: holds 12000 rps at p99 ≤ 10.0 ms, below 20000.", output);
    }

    [Fact]
    public void ACellThatConfirmedNothingSaysSoInsteadOfAZeroCapacityAndTheRampsP99()
    {
        using var f = new SummaryFixture();
        var report = f.Report("report", 10,
            new Cell("postgres", "author-write", 6000, 3.0, ConfirmedRps: 6000),
            new Cell("rabbitmq", "author-write", 9000, 87.5, ConfirmedRps: 0));
        var (code, output, _) = Verdict(report, "--slo-ms", "10", "--rate", "3000", "--workload", "author-write");
        Assert.Equal(0, code);
        var row = output.Split('\n').Single(l => l.Contains("rabbitmq"));
        Assert.Contains("none confirmed", row);
        Assert.Contains("author-write: no rate confirmed at p99 ≤ 10.0 ms", row);
        Assert.DoesNotContain("0.00×", row);
        Assert.DoesNotContain("87.5", row); // the ramp's p99 is no figure of a rate held

        (code, output, _) = Verdict(f.Report("alone", 10, new Cell("rabbitmq", "author-write", 9000, 87.5, ConfirmedRps: 0)),
            "--slo-ms", "10", "--rate", "3000", "--workload", "author-write");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("Closest: rabbitmq (nothing confirmed), which failed because author-write: no rate confirmed", output);
    }

    [Fact]
    public void ACapacityMostRepetitionsDidNotHoldThroughAConfirmationDoesNotQualify()
    {
        using var f = new SummaryFixture();
        var report = f.Report("report", 10,
            new Cell("redis-aof", "queue-write", 40000, 684, ConfirmedRps: 38921, Repeats: [29971, 39013, 38921], Held: [false, true, false]),
            new Cell("redis-rdb", "queue-write", 20000, 7.7, ConfirmedRps: 16501, Repeats: [16501, 21182, 12343], Held: [true, false, true]));
        var (code, output, _) = Verdict(report, "--slo-ms", "10", "--rate", "10000", "--workload", "queue-write");
        Assert.Equal(0, code);
        var aof = output.Split("\n").Single(l => l.Contains("redis-aof"));
        Assert.Contains("queue-write: a confirmation held in only 1 of 3 repetitions: 38921 rps at p99 ≤ 10.0 ms is not established", aof);
        Assert.Contains("≤ 38921", aof); // the capacity and its headroom are bounds
        Assert.Contains("≤ 3.89×", aof);
        Assert.Contains("redis-rdb", output.Split("redis-aof")[0]); // the one that held qualifies, ranked first
    }

    [Fact]
    public void AnEstablishedCapacityComesClosestBeforeABoundWithMoreHeadroom()
    {
        using var f = new SummaryFixture();
        var bound = new Cell("redis-sentinel", "queue-write", 40000, 40.1, ConfirmedRps: 12929, Repeats: [12929, 13448, 12900], Held: [false, false, false]);
        var report = f.Report("report", 10, bound, new Cell("nats-r3", "queue-write", 20000, 7.7, ConfirmedRps: 4280, Repeats: [4280, 3952, 4773], Held: [true, false, true]));
        var (code, output, _) = Verdict(report, "--slo-ms", "10", "--rate", "5000", "--workload", "queue-write");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("Closest: nats-r3 (0.86× the rate), which failed because queue-write: holds 4280 rps", output);

        (code, output, _) = Verdict(f.Report("alone", 10, bound), "--slo-ms", "10", "--rate", "5000", "--workload", "queue-write");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("Closest: redis-sentinel (at most 2.59× the rate), which failed because queue-write: a confirmation held in only 0 of 3", output);
    }

    [Fact]
    public void CrashDurabilityNeedsCleanKillRowsAndSaysNotMeasuredWithoutThem()
    {
        using var f = new SummaryFixture();
        var crash = Crash(f, string.Join(",", Row("postgres", "db-kill", 3000), Row("postgres", "service-kill", 3100), Row("postgres", "db-stop", 2000, lost: 5),
            Row("redis", "db-kill", 3000, lost: 3)));
        var (code, output, _) = Verdict(ThreeArchitectures(f), "--slo-ms", "10", "--rate", "3000", "--workload", "kv-get", "--durability", "crash", "--crash", crash);
        Assert.Equal(0, code);
        Assert.Contains("Qualifies: postgres.", output); // its db-stop loss is no crash
        Assert.Contains("no loss (2 runs)", output);
        Assert.Contains("crash: redis author db-kill: 3 lost of 3000 acknowledged", output);
        Assert.Contains("crash: not measured (the crash results hold no crash run for it)", output);
    }

    [Fact]
    public void PowerLossNeedsPowerLossRows()
    {
        using var f = new SummaryFixture();
        var crash = Crash(f, string.Join(",", Row("postgres", "db-kill", 3000), Row("redis", "x", 3000, faultField: "power-loss")));
        var (code, output, _) = Verdict(ThreeArchitectures(f), "--slo-ms", "10", "--rate", "3000", "--workload", "kv-get", "--durability", "power-loss", "--crash", crash);
        Assert.Equal(0, code);
        Assert.Contains("Qualifies: redis.", output);
        Assert.Contains("power-loss: not measured", output);

        var none = Crash(f, Row("postgres", "db-kill", 3000));
        (code, output, _) = Verdict(ThreeArchitectures(f), "--slo-ms", "10", "--rate", "3000", "--workload", "kv-get", "--durability", "power-loss", "--crash", none);
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("No architecture qualifies. Closest: tarantool-memtx", output);
        Assert.Contains("power-loss: not measured", output);
    }

    [Fact]
    public void BadInputExitsTwoNamingTheProblem()
    {
        using var f = new SummaryFixture();
        var report = ThreeArchitectures(f);
        Assert.Contains("needs --crash", Verdict(report, "--slo-ms", "10", "--rate", "1", "--durability", "crash").Err);
        Assert.Equal(Cli.InputError, Verdict(report, "--slo-ms", "10", "--rate", "1", "--durability", "crash").Code);
        Assert.Equal(Cli.InputError, Verdict(Path.Combine(f.Root, "none"), "--slo-ms", "10", "--rate", "1").Code);
        var (code, _, error) = Verdict(report, "--slo-ms", "10", "--rate", "1", "--workload", "queue-read");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("measured no 'queue-read'", error);
        var broken = f.Raw("broken-crash", "[{\"storage\": \"x\" \"acked\": 1}]");
        (code, _, error) = Verdict(report, "--slo-ms", "10", "--rate", "1", "--durability", "crash", "--crash", broken);
        Assert.Equal(Cli.InputError, code);
        Assert.Matches(@"broken-crash/summary\.json: line 1, byte \d+: not valid JSON", error);
        (code, _, error) = Verdict(report, "--slo-ms", "5", "--rate", "1");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("computed at p99 ≤ 10.0 ms", error);
    }

    [Fact]
    public void AnotherSloIsJudgedFromThePhoutLogs()
    {
        using var run = new RunDirectory();
        // 300 rps at 4 ms: holds a 5 ms SLO, not a 3 ms one.
        run.Run("postgres", "kv-get", 10, _ => 300, _ => 4, schedule: "const(300, 10s)");
        ReportBuilder.Build(run.Path, 10);
        Assert.Equal(0, Verdict(run.Path, "--slo-ms", "5", "--rate", "250").Code);
        var (code, output, _) = Verdict(run.Path, "--slo-ms", "3", "--rate", "250");
        Assert.Equal(VerdictCommand.NothingQualifies, code);
        Assert.Contains("analysed again at p99 ≤ 3.00 ms", output);
    }

    [Fact]
    public void TheReportHasAVerdictSection()
    {
        using var run = new RunDirectory();
        run.Run("postgres", "kv-get", 10, _ => 300, _ => 4, schedule: "const(300, 10s)");
        run.Run("redis", "kv-get", 10, _ => 100, _ => 1, schedule: "const(100, 10s)");
        run.Run("postgres", "kv-put", 10, _ => 100, _ => 40, schedule: "const(100, 10s)"); // p99 40 ms: nothing held
        ReportBuilder.Build(run.Path, 10);
        var md = run.Read("report.md");
        // The report opens with it: before the summary.
        Assert.True(md.IndexOf("## Verdict", StringComparison.Ordinal) is > 0 and var v && v < md.IndexOf("## Summary", StringComparison.Ordinal));
        // Half the best (300) is 150; the round rate at or below it is 100, which redis just holds.
        Assert.Contains("Which architectures hold 100 requests/s at p99 ≤ 10.0 ms in kv-get?", md);
        Assert.Contains("**Qualifies: postgres", md);
        Assert.Contains("lab verdict <this report folder> --slo-ms S --rate R", md);
        // A scenario nobody held is named, not left out.
        Assert.Contains("No architecture held p99 ≤ 10.0 ms in kv-put, so there is no rate to judge against there.", md);
        var html = run.Read("report.html");
        Assert.Contains("No architecture held p99 ≤ 10.0 ms in kv-put", html);
        Assert.True(html.IndexOf("<h2>Verdict</h2>", StringComparison.Ordinal) is > 0 and var h && h < html.IndexOf("<h2>Summary</h2>", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(150, 100)]
    [InlineData(9_700, 5_000)]
    [InlineData(4_999, 2_000)]
    [InlineData(2_000, 2_000)]
    [InlineData(1.5, 1)]
    [InlineData(0.2, 1)]
    public void TheReportsTargetIsARoundRate(double halfTheBest, double rate) =>
        Assert.Equal(rate, Lab.Verdicts.VerdictSection.RoundRate(halfTheBest));
}
