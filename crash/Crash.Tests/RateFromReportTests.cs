using System.Text.Json;
using Crash.Commands;
using Crash.Matrix;
using Crash.Rates;
using Lab.Report;
using Tank.Ammo;
using Tank.Runner;

namespace Crash.Tests;

/// <summary>
/// --rate-from: each run at a share of the capacity a lab bench report confirmed for its
/// architecture's writes, --rate where the report has none, and a bad report is bad input (exit 2).
/// </summary>
public sealed class RateFromReportTests : IDisposable
{
    private static readonly string Catalogue = Path.Combine(AppContext.BaseDirectory, "Fixtures", "catalogue.json");
    private readonly string _report = Path.Combine(Path.GetTempPath(), $"crash-rate-{Guid.NewGuid():N}");

    public RateFromReportTests()
    {
        // A small bench report as lab bench lays it out: runs/<storage>[-xN]/<scenario>/{phout.log, meta.json, capacity.json}.
        Cell("postgres", "kv-put", confirmedRps: [1000, 1200, 1100]);
        Cell("postgres", "author-write", confirmedRps: [0]);
        Cell("tarantool-memtx", "kv-put", confirmedRps: [8000]);
        Cell("tarantool-memtx", "kv-put", confirmedRps: [20_000], nodes: 3);
        Cell("postgres", "author-read", confirmedRps: [5000]);
    }

    public void Dispose() => Directory.Delete(_report, recursive: true);

    [Fact]
    public void EachRunWritesAtHalfItsWriteCellsConfirmedMedian()
    {
        var (code, output, _) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill", "--rate-from", _report);
        Assert.Equal(0, code);
        Assert.EndsWith($"\t550/s (0.5 × 1100 rps confirmed for kv-put on postgres in {_report})", output.Trim());
    }

    [Fact]
    public void ARunWithoutAConfirmedFigureFallsBackToRateAndSaysSo()
    {
        // author-write confirmed nothing (0); item-write was not measured at all.
        var (code, output, _) = Matrix("--storage", "postgres", "--kind", "author,item", "--fault", "db-kill", "--rate-from", _report, "--rate", "300");
        Assert.Equal(0, code);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.EndsWith($"\t300/s (--rate 300/s: {_report} has no confirmed author-write on postgres)", lines[0]);
        Assert.EndsWith($"\t300/s (--rate 300/s: {_report} has no confirmed item-write on postgres)", lines[1]);
    }

    [Fact]
    public void AnArchitectureWhoseWritesTheBenchLeftToAnotherTakesThatOnesFigure()
    {
        // lab bench's default run measures tarantool-vinyl's writes as tarantool-memtx's (one server, one WAL).
        var (code, output, _) = Matrix("--storage", "tarantool-vinyl", "--kind", "kv", "--fault", "db-kill", "--rate-from", _report);
        Assert.Equal(0, code);
        Assert.EndsWith($"\t4000/s (0.5 × 8000 rps confirmed for kv-put on tarantool-memtx in {_report})", output.Trim());
        // Not across servers: postgres has no stand-in for its missing item-write.
        Assert.Contains("has no confirmed item-write on postgres)", Matrix("--storage", "postgres", "--kind", "item", "--fault", "db-kill", "--rate-from", _report).Output);
    }

    [Fact]
    public void TheShareIsAnOption()
    {
        var (code, output, _) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill", "--rate-from", _report, "--rate-share", "0.25");
        Assert.Equal(0, code);
        Assert.Contains("\t275/s (0.25 × 1100 rps", output);
    }

    [Fact]
    public void AClusterRunTakesTheClustersCellOfAsManyNodesElseTheSingleNodes()
    {
        Assert.Contains($"\t10000/s (0.5 × 20000 rps confirmed for kv-put on tarantool-memtx ×3 in {_report})", Cluster("--nodes", "3").Output);
        Assert.Contains($"\t4000/s (0.5 × 8000 rps confirmed for kv-put on tarantool-memtx in {_report})", Cluster("--nodes", "2").Output);
    }

    [Fact]
    public void WithoutAReportTheRateIsFixedAndNamed()
    {
        Assert.Equal(new RunRate(200, "default"), RateRule.Default.For("postgres", CrashKind.KeyValue));
        var (_, output, _) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill", "--quick");
        Assert.EndsWith("\t100/s (default (--quick))", output.Trim());
    }

    [Fact]
    public void AMalformedCapacityFileIsBadInputNamingTheFileAndLine()
    {
        var bad = Path.Combine(_report, "runs", "postgres", "kv-put", "capacity.json");
        File.WriteAllText(bad, "{\n  \"confirmed_rps\": 10,\n  oops\n}\n");
        var (code, _, error) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill", "--rate-from", _report);
        Assert.Equal(CrashCli.InputError, code);
        Assert.Contains($"{bad}: line 3: not valid capacity.json", error);
    }

    [Fact]
    public void AMissingReportFolderIsBadInputNamingIt()
    {
        var missing = Path.Combine(_report, "nowhere");
        var (code, _, error) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill", "--rate-from", missing);
        Assert.Equal(CrashCli.InputError, code);
        Assert.Contains($"{missing}: directory: run directory not found", error);
    }

    [Fact]
    public void AReportWithoutAnyCapacityFileIsNotABenchReport()
    {
        foreach (var file in Directory.GetFiles(_report, "capacity.json", SearchOption.AllDirectories)) File.Delete(file);
        var (code, _, error) = Cluster("--nodes", "3");
        Assert.Equal(CrashCli.InputError, code);
        Assert.Contains($"{Path.Combine(_report, "runs")}: capacity.json: no cell has one: not a report of lab bench", error);
    }

    [Fact]
    public void ARateFromTheReportThatCannotBePlannedSaysWhereItCameFrom()
    {
        Cell("postgres", "item-write", confirmedRps: [10_000]);
        var (code, _, error) = Matrix("--storage", "postgres", "--kind", "item", "--fault", "db-kill", "--rate-from", _report);
        Assert.Equal(CrashCli.InputError, code);
        Assert.Contains("postgres item db-kill at 5000/s (0.5 × 10000 rps confirmed for item-write on postgres", error);
        Assert.Contains("--rate × --seconds must be at most 20000", error);
    }

    [Fact]
    public void OnlyARunAtARateFromTheReportWarmsUpBeforeItsClockStarts()
    {
        var rules = new RateRule(300, "--rate") with { Report = BenchCapacities.Load(_report) };
        static CrashOptions Run(RunRate rate) => new()
        {
            Url = "http://x", Storage = "postgres", Kind = CrashKind.KeyValue, Rate = rate.Rate, RateFromReport = rate.FromReport,
            Seconds = 20, FaultAt = 6, FaultCommand = "none", Out = "o", Label = "l",
        };
        var loaded = Run(rules.For("postgres", CrashKind.KeyValue));
        Assert.Equal(CrashOptions.LoadedWarmupSeconds, loaded.WarmupSeconds);
        // Its ramp's writes (rate × ramp / 2), then the seconds at the rate.
        Assert.Equal((long)(loaded.Rate * CrashOptions.WarmupRampSeconds / 2) + (long)(loaded.Rate * CrashOptions.LoadedWarmupSeconds), loaded.WarmupWrites);
        Assert.Equal(0, Run(rules.For("postgres", CrashKind.Author)).WarmupSeconds); // no confirmed figure: --rate
        Assert.Equal(0, Run(new RateRule(300, "--rate").For("postgres", CrashKind.KeyValue)).WarmupSeconds);
    }

    [Fact]
    public void SummaryJsonRecordsEachRunsRateAndItsSource()
    {
        var path = Path.Combine(_report, "summary.json");
        MatrixSummary.WriteJson([new CrashResult { Label = "postgres kv db-kill", Rate = 550, RateSource = "0.5 × 1100 rps confirmed for kv-put on postgres in r" }], path);
        var row = JsonDocument.Parse(File.ReadAllText(path)).RootElement[0];
        Assert.Equal((550.0, "0.5 × 1100 rps confirmed for kv-put on postgres in r"), (row.GetProperty("rate").GetDouble(), row.GetProperty("rate_source").GetString()));
    }

    private void Cell(string storage, string scenario, long[] confirmedRps, int nodes = 0)
    {
        var dir = Path.Combine(_report, "runs", nodes > 1 ? $"{storage}-x{nodes}" : storage, scenario);
        Directory.CreateDirectory(dir);
        File.WriteAllText(Path.Combine(dir, "phout.log"), "");
        new RunMeta { Storage = storage, Scenario = scenario, Nodes = nodes }.Write(Path.Combine(dir, "meta.json"));
        CapacityFile.Of([.. confirmedRps.Select((rps, i) => new RepeatRecord(i + 1, rps, rps > 0 ? 4.2 : null))], [], 10).Write(dir);
    }

    private (int Code, string Output, string Error) Matrix(params string[] args) =>
        Run(["matrix", "--url", "http://127.0.0.1:19300", "--service-dir", _report, "--services", "script/services", "--catalogue", Catalogue,
            "--out", Path.Combine(_report, "out"), "--plan", .. args]);

    private (int Code, string Output, string Error) Cluster(params string[] args) =>
        Run(["cluster", "--root", ".", "--port", "19300", "--catalogue", Catalogue, "--out", Path.Combine(_report, "out"),
            "--storage", "tarantool-memtx", "--fault", "node-kill", "--rate-from", _report, "--plan", .. args]);

    private static (int Code, string Output, string Error) Run(string[] args)
    {
        var (output, error) = (new StringWriter(), new StringWriter());
        var code = CrashCli.Run(args, output, error);
        return (code, output.ToString(), error.ToString());
    }
}
