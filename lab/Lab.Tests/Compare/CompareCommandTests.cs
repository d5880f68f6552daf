using Tank.Commands;
using Lab.Compare;
using Lab.Report;
using Lab.Tests.Report;
using Harness.CommandLine;
using Lab.Commands;
using Cell = Lab.Tests.Compare.SummaryFixture.Cell;

namespace Lab.Tests.Compare;

/// <summary>lab compare BASE NEW: 0 when nothing got worse, 1 naming the cells that did, 2 on bad input.</summary>
public sealed class CompareCommandTests
{
    private static (int Code, string Out, string Err) Compare(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var code = LabCli.Run(["compare", .. args], output, error);
        return (code, output.ToString(), error.ToString());
    }

    [Fact]
    public void NothingWorseExitsZeroAndSaysSo()
    {
        using var f = new SummaryFixture();
        var before = f.Report("base", 10, new Cell("postgres", "author-read", 4000, 3.0), new Cell("redis", "kv-get", 9000, 1.0));
        var after = f.Report("new", 10, new Cell("postgres", "author-read", 3800, 3.2), new Cell("redis", "kv-get", 12000, 0.8));
        var (code, output, _) = Compare(before, after);
        Assert.Equal(0, code);
        Assert.Contains("No cell got worse.", output);
        Assert.Contains("postgres · author-read", output);
        Assert.Contains("4000 → 3800 (−5.0 %)", output);
        Assert.Contains("9000 → 12000 (+33.3 %) ✓", output);
    }

    [Fact]
    public void RunsOnDifferentMachinesAreSaidToBe()
    {
        using var f = new SummaryFixture();
        f.MachineCpu = "Intel(R) Xeon(R) Processor";
        var before = f.Report("base", 10, new Cell("postgres", "author-read", 4000, 3.0));
        var same = f.Report("same", 10, new Cell("postgres", "author-read", 4100, 3.0));
        f.MachineCpu = "AMD EPYC";
        var other = f.Report("other", 10, new Cell("postgres", "author-read", 4100, 3.0));

        Assert.DoesNotContain("machines differ", Compare(before, same).Out);
        var (code, output, _) = Compare(before, other);
        Assert.Equal(0, code);
        Assert.Contains("note: the runs' machines differ (cpu: Intel(R) Xeon(R) Processor → AMD EPYC): a change in any cell may be the machine's, not the build's", output);
    }

    [Fact]
    public void ACellWorseBeyondTheThresholdExitsOneAndIsNamed()
    {
        using var f = new SummaryFixture();
        var before = f.Report("base", 10, new Cell("postgres", "author-read", 4000, 3.0), new Cell("tarantool-memtx", "author-read", 9000, 1.0, CpuUs: 40));
        var after = f.Report("new", 10, new Cell("postgres", "author-read", 4100, 3.0), new Cell("tarantool-memtx", "author-read", 6000, 1.0, CpuUs: 60));
        var (code, output, _) = Compare(before, after);
        Assert.Equal(CompareCommand.Regressed, code);
        Assert.Contains("Worse in 1 cell:", output);
        Assert.Contains("  tarantool-memtx · author-read: capacity (rps @ SLO) 9000 → 6000 (−33.3 %) ✗, CPU µs/request 40.0 → 60.0 (+50.0 %) ✗", output);
        Assert.DoesNotContain("  postgres · author-read:", output);
        // A looser threshold forgives it.
        Assert.Equal(0, Compare(before, after, "--threshold", "60").Code);
    }

    // Each pair: BASE's confirmed median and repetitions, NEW's, and whether compare calls it worse (threshold 10 %).
    [Theory]
    // Inside each other's spread.
    [InlineData(5000, new double[] { 4200, 5000, 5600 }, 4400, new double[] { 3900, 4400, 4500 }, "5000 [4200–5600] → 4400 [3900–4500] (−12.0 %)", false)]
    // Apart by far more than the threshold.
    [InlineData(5000, new double[] { 4200, 5000, 5600 }, 3000, new double[] { 2900, 3000, 3100 }, "5000 [4200–5600] → 3000 [2900–3100] (−40.0 %)", true)]
    // The medians 17.5 % apart, the intervals overlapping: no difference.
    [InlineData(25790, new double[] { 21492, 25790, 28482 }, 21283, new double[] { 21600, 17026, 21283 }, "25790 [21492–28482] → 21283 [17026–21600] (−17.5 %)", false)]
    // The intervals separate, barely, and the medians 17.5 % apart: a change.
    [InlineData(25790, new double[] { 21492, 25790, 28482 }, 21283, new double[] { 21283, 17026, 21283 }, "25790 [21492–28482] → 21283 [17026–21283] (−17.5 %) ✗", true)]
    // Spreads 11.6 % apart at their nearest edges.
    [InlineData(25790, new double[] { 21492, 25790, 28482 }, 17000, new double[] { 16000, 17000, 19000 }, "25790 [21492–28482] → 17000 [16000–19000] (−34.1 %) ✗", true)]
    public void AChangeCountsOnlyWhenTheIntervalsSeparateAndTheChangeIsBeyondTheThreshold(double before, double[] beforeRepeats, double after, double[] afterRepeats, string shown, bool worse)
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Compare(f.Report("base", 10, new Cell("tarantool-memtx", "author-read", 40000, 3.0, ConfirmedRps: before, Repeats: beforeRepeats)),
            f.Report("new", 10, new Cell("tarantool-memtx", "author-read", 40000, 3.0, ConfirmedRps: after, Repeats: afterRepeats)));
        Assert.Equal(worse ? CompareCommand.Regressed : 0, code);
        Assert.Contains(shown, output);
    }

    [Fact]
    public void TheBenchsIntervalOfTheMedianIsTheSpreadCompareJudges()
    {
        using var f = new SummaryFixture();
        // The repetitions' min–max overlap, the intervals of the medians do not.
        var (code, output, _) = Compare(
            f.Report("base", 10, new Cell("postgres", "author-read", 40000, 3.0, ConfirmedRps: 10000, Repeats: [8000, 9900, 10000, 10100, 12000], Interval: [9900, 10100])),
            f.Report("new", 10, new Cell("postgres", "author-read", 40000, 3.0, ConfirmedRps: 8500, Repeats: [7000, 8400, 8500, 8600, 9000], Interval: [8400, 8600])));
        Assert.Equal(CompareCommand.Regressed, code);
        Assert.Contains("10000 [9900–10100] → 8500 [8400–8600] (−15.0 %) ✗", output);
    }

    [Fact]
    public void AnUnstableCellIsReportedAsSuchNeverAsNoDifference()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Compare(
            f.Report("base", 10, new Cell("postgres", "author-read", 40000, 3.0, ConfirmedRps: 10000, Repeats: [7000, 10000, 12000], Interval: [7000, 12000], UnstableBecause: "stalls in 2 confirmations")),
            f.Report("new", 10, new Cell("postgres", "author-read", 40000, 3.0, ConfirmedRps: 10100, Repeats: [9900, 10100, 10200], Interval: [9900, 10200])));
        Assert.Equal(0, code);
        var row = output.Split('\n').Single(l => l.StartsWith("postgres · author-read", StringComparison.Ordinal)).TrimEnd();
        Assert.EndsWith("unstable", row);
        Assert.DoesNotContain("no difference", row);
        Assert.Contains("Could not tell in 1 cell (unstable, not \"no difference\"):", output);
        Assert.Contains("BASE stalls in 2 confirmations", output);
    }

    [Fact]
    public void ACellThatHeldNoConfirmationInNewIsNotCalledNoDifference()
    {
        using var f = new SummaryFixture();
        var held = new Cell("redis-sentinel", "queue-write", 40000, 3.0, ConfirmedRps: 13000, Repeats: [12800, 13000, 13300], Interval: [12800, 13300], Held: [true, true, true]);
        // The same figures, but no confirmation held: bounds, the stack's rate at the SLO is below them.
        var bounds = held with { Held = [false, true, false] };
        var (code, output, _) = Compare(f.Report("base", 10, held), f.Report("new", 10, bounds));
        Assert.Equal(0, code);
        var row = output.Split('\n').Single(l => l.StartsWith("redis-sentinel · queue-write", StringComparison.Ordinal)).TrimEnd();
        Assert.EndsWith("unstable", row);
        Assert.Contains("not established: NEW held a confirmation in only 1 of 3 repetitions, so its figure is a bound", output);
        // Established in both: no difference, as before.
        (code, output, _) = Compare(f.Report("base2", 10, held), f.Report("new2", 10, held));
        Assert.Equal(0, code);
        Assert.EndsWith("no difference", output.Split('\n').Single(l => l.StartsWith("redis-sentinel · queue-write", StringComparison.Ordinal)).TrimEnd());
    }

    [Fact]
    public void AnUnstableCellWhoseIntervalsSeparateIsStillWorse()
    {
        using var f = new SummaryFixture();
        var (code, output, _) = Compare(
            f.Report("base", 10, new Cell("tarantool-memtx", "author-read", 40000, 3.0, ConfirmedRps: 20000, Repeats: [19000, 20000, 21000], Interval: [19000, 21000])),
            f.Report("new", 10, new Cell("tarantool-memtx", "author-read", 40000, 3.0, ConfirmedRps: 5000, Repeats: [3000, 5000, 8000], Interval: [3000, 8000], UnstableBecause: "stalls")));
        Assert.Equal(CompareCommand.Regressed, code);
        Assert.Contains("Worse in 1 cell:", output);
        Assert.Contains("tarantool-memtx · author-read: capacity", output);
    }

    // Figures shaped like script/bench --quick --repeat 3 --storage tarantool-memtx --scenario
    // author-read: twice on the same build, then with the database's CPU throttled to a third.
    [Fact]
    public void RepeatedConfirmationsOfTheSameBuildAreNoDifferenceAndAThirdOfThemIsWorse()
    {
        using var f = new SummaryFixture();
        var a = f.Report("a", 10, new Cell("tarantool-memtx", "author-read", 14000, 4.0, ConfirmedRps: 6200, Repeats: [5900, 6200, 6400]));
        var b = f.Report("b", 10, new Cell("tarantool-memtx", "author-read", 9000, 6.5, ConfirmedRps: 5700, Repeats: [5500, 5700, 6300]));
        var (code, output, _) = Compare(a, b);
        Assert.Equal(0, code);
        Assert.Contains("6200 [5900–6400] → 5700 [5500–6300] (−8.1 %)", output);

        var throttled = f.Report("throttled", 10, new Cell("tarantool-memtx", "author-read", 5000, 3.0, ConfirmedRps: 2050, Repeats: [1900, 2050, 2200]));
        (code, output, _) = Compare(a, throttled);
        Assert.Equal(CompareCommand.Regressed, code);
        Assert.Contains("  tarantool-memtx · author-read: capacity (rps @ SLO) 6200 [5900–6400] → 2050 [1900–2200] (−66.9 %) ✗", output);
    }

    [Fact]
    public void RampsBesideAConfirmedCapacityDoNotWidenItsSpread()
    {
        // Before each repetition was confirmed, the quick ramps' max rps @ SLO (min 0) were the spread, and a 3× drop compared equal.
        using var f = new SummaryFixture();
        var before = f.Report("base", 10, new Cell("tarantool-memtx", "author-read", 15000, 4.0, ConfirmedRps: 6200, RampRepeats: [0, 14892, 19465]));
        var after = f.Report("new", 10, new Cell("tarantool-memtx", "author-read", 5000, 3.0, ConfirmedRps: 2000, RampRepeats: [0, 4800, 6100]));
        Assert.Equal(Lab.Compare.Spread.Of(6200), ReportFileReader.Read(before).Cells[0].Capacity.Spread);
        var (code, output, _) = Compare(before, after);
        Assert.Equal(CompareCommand.Regressed, code);
        Assert.Contains("tarantool-memtx · author-read: capacity (rps @ SLO) 6200 → 2000 (−67.7 %) ✗", output);
    }

    [Fact]
    public void AConfirmedCellsCpuPerRequestIsItsConfirmingHoldsWithTheirSpread()
    {
        using var f = new SummaryFixture();
        const string run = "\"storage\": \"postgres\", \"scenario\": \"kv-get\", \"max_sustained_rps\": 900, \"quantiles_ms\": {\"p99\": 1}, " +
                           "\"cpu\": [{\"process\": \"service\", \"us_per_request\": 300}], \"confirmed_rps\": 1000";
        string Report(string name, params double[] cpu) => f.Raw(name, $"{{\"slo_ms\": 10, \"runs\": [{{{run}, \"confirmed_cpu_us_per_request\": {SummaryFixture.N(cpu[1])}, " +
            $"\"repeats\": [{string.Join(", ", cpu.Select(c => $"{{\"confirmed_rps\": 1000, \"cpu_us_per_request\": {SummaryFixture.N(c)}}}"))}]}}]}}");
        var a = Report("a", 100, 110, 125);
        var cell = ReportFileReader.Read(a).Cells.Single();
        Assert.Equal((110.0, new Lab.Compare.Spread(100, 125)), (cell.CpuUsPerRequest!.Value, cell.CpuUsPerRequest.Spread));
        Assert.Equal(0, Compare(a, Report("b", 118, 124, 131)).Code); // +12.7 %, but the ranges overlap
        Assert.Equal(CompareCommand.Regressed, Compare(a, Report("c", 150, 160, 170)).Code);
    }

    [Fact]
    public void TheP99AtEachRunsOwnConfirmedRateIsNotJudged()
    {
        using var f = new SummaryFixture();
        var before = f.Report("base", 10, new Cell("redis", "kv-get", 9000, 2.0, ConfirmedRps: 9000));
        var after = f.Report("new", 10, new Cell("redis", "kv-get", 9500, 7.0, ConfirmedRps: 9500));
        Assert.Equal(0, Compare(before, after).Code);
    }

    [Fact]
    public void ConfirmedCapacityIsPreferredOverMaxRpsAtSlo()
    {
        using var f = new SummaryFixture();
        var report = ReportFileReader.Read(f.Report("r", 10, new Cell("postgres", "kv-get", 9999, 2.0, ConfirmedRps: 5000)));
        Assert.Equal(5000, report.Cells.Single().Capacity.Value);
        Assert.True(report.Cells.Single().Confirmed);
        Assert.Equal(50, report.Cells.Single().CpuUsPerRequest!.Value, 6); // tank's own CPU is left out
    }

    [Fact]
    public void RepeatFieldsInOtherShapesAreReadOrLeftOut()
    {
        using var f = new SummaryFixture();
        const string run = "\"storage\": \"redis\", \"scenario\": \"kv-get\", \"max_sustained_rps\": 900, \"quantiles_ms\": {\"p99\": 1}";
        var nested = ReportFileReader.Read(f.Raw("nested", $"{{\"slo_ms\": 10, \"runs\": [{{{run}, \"confirmed_rps\": 1000, \"spread\": {{\"rps\": [950, 1100]}}, " +
            "\"repeats\": [{\"confirmed_rps\": 950, \"p99_ms\": 0.9}, {\"confirmed_rps\": 1100, \"p99_ms\": 1.3}]}]}"));
        Assert.Equal(new Lab.Compare.Spread(950, 1100), nested.Cells[0].Capacity.Spread);
        Assert.Equal(new Lab.Compare.Spread(0.9, 1.3), nested.Cells[0].P99Ms.Spread);
        var unknown = ReportFileReader.Read(f.Raw("unknown", $"{{\"slo_ms\": 10, \"runs\": [{{{run}, \"spread\": 7.5, \"repeats\": [\"a\", null]}}]}}"));
        Assert.Equal(Lab.Compare.Spread.Of(900), unknown.Cells[0].Capacity.Spread);
    }

    [Fact]
    public void AConfirmedCellsP99IsItsConfirmationsNotTheRamps()
    {
        using var f = new SummaryFixture();
        const string run = "\"storage\": \"tarantool-memtx\", \"scenario\": \"author-read\", \"max_sustained_rps\": 12441, \"quantiles_ms\": {\"p99\": 17.6}";
        var confirmed = ReportFileReader.Read(f.Raw("confirmed", $"{{\"slo_ms\": 10, \"runs\": [{{{run}, \"confirmed_rps\": 28597, \"confirmed_p99_ms\": 3.704}}]}}"));
        Assert.Equal(3.704, confirmed.Cells[0].P99Ms.Value, 6);
        var ramp = ReportFileReader.Read(f.Raw("ramp", $"{{\"slo_ms\": 10, \"runs\": [{{{run}}}]}}"));
        Assert.Equal(17.6, ramp.Cells[0].P99Ms.Value, 6);
    }

    [Fact]
    public void ALowerCapacityThatIsOnlyALowerBoundIsNoRegression()
    {
        using var f = new SummaryFixture();
        var before = f.Report("base", 10, new Cell("redis", "kv-get", 20000, 1.0));
        var after = f.Report("new", 10, new Cell("redis", "kv-get", 10000, 1.0, HeldAtPeak: true));
        var (code, _, _) = Compare(before, after);
        Assert.Equal(0, code);
    }

    [Fact]
    public void AMissingFolderOrSummaryIsBadInputNamingTheFile()
    {
        using var f = new SummaryFixture();
        var good = f.Report("good", 10, new Cell("postgres", "kv-get", 1000, 1.0));
        var (code, _, error) = Compare(good, Path.Combine(f.Root, "nowhere"));
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("nowhere", error);
        Directory.CreateDirectory(Path.Combine(f.Root, "empty"));
        (code, _, error) = Compare(Path.Combine(f.Root, "empty"), good);
        Assert.Equal(Cli.InputError, code);
        Assert.Contains(Path.Combine(f.Root, "empty", "summary.json") + ": file: no summary.json", error);
    }

    [Fact]
    public void MalformedJsonIsBadInputWithItsPosition()
    {
        using var f = new SummaryFixture();
        var good = f.Report("good", 10, new Cell("postgres", "kv-get", 1000, 1.0));
        var broken = f.Raw("broken", "{\n  \"slo_ms\": 10,\n  \"runs\": [ { \"storage\": \"x\", } ]\n}\n");
        var (code, _, error) = Compare(good, broken);
        Assert.Equal(Cli.InputError, code);
        Assert.Matches(@"broken/summary\.json: line 3, byte \d+: not valid JSON", error);

        var wrongType = f.Raw("wrong", "{\"slo_ms\": 10, \"runs\": [{\"storage\": \"x\", \"scenario\": \"y\", \"max_sustained_rps\": \"fast\", \"quantiles_ms\": {\"p99\": 1}}]}");
        (code, _, error) = Compare(good, wrongType);
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("wrong/summary.json: runs[0].max_sustained_rps: is not a number", error);
    }

    [Fact]
    public void ReadsTheSummaryTankReportWrites()
    {
        using var run = new RunDirectory();
        run.Run("postgres", "author-read", 10, _ => 200, _ => 2, schedule: "const(200, 10s)",
            cpu: [new Tank.Cpu.CpuUsage("service", 1, 0.5), new Tank.Cpu.CpuUsage("tank", 2, 0.1)]);
        ReportBuilder.Build(run.Path, 10);
        var report = ReportFileReader.Read(run.Path);
        var cell = Assert.Single(report.Cells);
        Assert.Equal(("postgres", "author-read"), (cell.Storage, cell.Scenario));
        Assert.Equal(200, cell.Capacity.Value);
        Assert.Equal(2.0, cell.P99Ms.Value, 1);
        Assert.Equal(0.5 * 1e6 / 2000, cell.CpuUsPerRequest!.Value, 1);
        Assert.Equal(0, Compare(run.Path, run.Path).Code);
    }

    [Fact]
    public void HistoryAppendsOneLinePerReport()
    {
        using var f = new SummaryFixture();
        var report = f.Report("r", 10, new Cell("postgres", "kv-get", 1000, 1.0), new Cell("redis", "kv-get", 3000, 0.5));
        var file = Path.Combine(f.Root, "reports", "history.jsonl");
        Assert.Equal(0, LabCli.Run(["history", report, "--file", file], TextWriter.Null, TextWriter.Null));
        Assert.Equal(0, LabCli.Run(["history", report, "--file", file, "--build", "deadbee"], TextWriter.Null, TextWriter.Null));
        var lines = HistoryFile.Read(file);
        Assert.Equal(2, lines.Count);
        Assert.Equal("abc1234", lines[0].GetProperty("build").GetString());
        Assert.Equal("deadbee", lines[1].GetProperty("build").GetString());
        Assert.Equal(2, lines[1].GetProperty("machine").GetProperty("cores").GetInt32());
        Assert.Equal(3000, lines[1].GetProperty("cells")[1].GetProperty("capacity_rps").GetDouble());

        File.AppendAllText(file, "{oops\n");
        var error = new StringWriter();
        Assert.Equal(Cli.InputError, LabCli.Run(["history", report, "--file", file], TextWriter.Null, error));
        Assert.Contains("history.jsonl: line 3, byte", error.ToString());
    }
}
