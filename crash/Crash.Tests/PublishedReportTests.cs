using Crash.Commands;
using Crash.Matrix;
using Crash.Rates;
using Lab.Report;
using Tank.Runner;

namespace Crash.Tests;

/// <summary>
/// Without --rate or --rate-from (and not --quick), faults run under the load of the published bench
/// report: the one docs/RESULTS.md was generated from, else reports/latest, else the fixed rate; the
/// start says which, and every run's rate says which cell and figure it came from.
/// </summary>
public sealed class PublishedReportTests : IDisposable
{
    private const string Stamp = "reports/20261127T074707Z";
    private static readonly string Catalogue = Path.Combine(AppContext.BaseDirectory, "Fixtures", "catalogue.json");
    private readonly string _root = Directory.CreateTempSubdirectory("crash-root-").FullName;

    public void Dispose() => Directory.Delete(_root, recursive: true);

    [Fact]
    public void TheRatesComeFromTheReportTheResultsPageWasGeneratedFrom()
    {
        ResultsPage(Stamp);
        Cell(Stamp, "postgres", "kv-put", 1100);
        Cell("reports/latest", "postgres", "kv-put", 9999);
        var (code, output, error) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill");
        Assert.Equal(0, code);
        Assert.EndsWith($"\t550/s (0.5 × 1100 rps confirmed for kv-put on postgres in {Stamp})", output.Trim());
        Assert.Contains($"crash: rates: from the bench report {Stamp} (the bench report docs/RESULTS.md was generated from): 0.5 × the capacity", error);
    }

    [Fact]
    public void WithoutTheNamedReportReportsLatestStandsIn()
    {
        ResultsPage(Stamp);
        Cell("reports/latest", "postgres", "kv-put", 800);
        var (code, output, error) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill");
        Assert.Equal(0, code);
        Assert.EndsWith("\t400/s (0.5 × 800 rps confirmed for kv-put on postgres in reports/latest)", output.Trim());
        Assert.Contains($"from the bench report reports/latest (docs/RESULTS.md was generated from {Stamp}, which is not here): 0.5 × the capacity", error);
    }

    [Fact]
    public void WithoutABenchReportTheFixedDefaultStandsAndTheStartSaysWhy()
    {
        ResultsPage(Stamp);
        Directory.CreateDirectory(Path.Combine(_root, Stamp)); // a folder, but no cell with a capacity.json
        var (code, output, error) = Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill");
        Assert.Equal(0, code);
        Assert.EndsWith("\t200/s (default)", output.Trim());
        Assert.Contains($"crash: rates: 200/s (default: no bench report: docs/RESULTS.md was generated from {Stamp}, which is not a lab bench report, and reports/latest is not here) for every run", error);
    }

    [Fact]
    public void RateOrQuickKeepTheirFixedRate()
    {
        ResultsPage(Stamp);
        Cell(Stamp, "postgres", "kv-put", 1100);
        Assert.EndsWith("\t300/s (--rate)", Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill", "--rate", "300").Output.Trim());
        Assert.EndsWith("\t100/s (default (--quick))", Matrix("--storage", "postgres", "--kind", "kv", "--fault", "db-kill", "--quick").Output.Trim());
    }

    [Fact]
    public void AClusterTakesThePublishedReportOfItsRoot()
    {
        ResultsPage(Stamp);
        Cell(Stamp, "tarantool-memtx", "kv-put", 20_000, nodes: 3);
        var output = new StringWriter();
        Assert.Equal(0, CrashCli.Run(["cluster", "--root", _root, "--port", "19200", "--catalogue", Catalogue, "--out", Path.Combine(_root, "out"),
            "--storage", "tarantool-memtx", "--fault", "node-pause", "--plan"], output, TextWriter.Null));
        Assert.EndsWith($"\t10000/s (0.5 × 20000 rps confirmed for kv-put on tarantool-memtx ×3 in {Stamp})", output.ToString().Trim());
    }

    [Fact]
    public void ARateFromTheDefaultReportThatCannotBePlannedFallsBackToTheFixedRateSayingWhy()
    {
        // 0.5 × 10000 item writes a second for 20 s needs 100000 location sets; the matrix loads 20000.
        ResultsPage(Stamp);
        Cell(Stamp, "postgres", "item-write", 10_000);
        var (code, output, _) = Matrix("--storage", "postgres", "--kind", "item", "--fault", "db-kill");
        Assert.Equal(0, code);
        Assert.Contains($"\t200/s (default 200/s: 5000/s (0.5 × 10000 rps confirmed for item-write on postgres in {Stamp}) cannot be planned: ", output);
        Assert.Contains("--rate × --seconds must be at most 20000", output);
    }

    [Fact]
    public void EveryRunRecordsTheReportItsRateCameFrom()
    {
        ResultsPage(Stamp);
        Cell(Stamp, "postgres", "kv-put", 1100);
        var rule = new RateRule(200, "default") with { Report = BenchCapacities.Load(Path.Combine(_root, Stamp), _root) };
        Assert.Equal(Stamp, rule.For("postgres", CrashKind.KeyValue).Report);
        Assert.Equal(Stamp, rule.For("postgres", CrashKind.Author).Report); // no figure: the fixed rate, from the same report's rule
        Assert.Null(RateRule.Default.For("postgres", CrashKind.KeyValue).Report);

        var path = Path.Combine(_root, "r.json");
        new CrashResult { Label = "postgres kv db-kill", RateReport = Stamp, RateSource = "0.5 × 1100 rps confirmed for kv-put on postgres in " + Stamp, RateFromReport = true }.Write(path);
        var json = System.Text.Json.JsonDocument.Parse(File.ReadAllText(path)).RootElement;
        Assert.Equal(Stamp, json.GetProperty("rate_report").GetString());
    }

    [Theory]
    [InlineData("Generated by `lab report reports/20261127T074707Z --results docs/RESULTS.md --readme README.md` from the runs of 2026-11-27.", "reports/20261127T074707Z")]
    [InlineData("Generated by `lab report /data/bench/x --results docs/RESULTS.md`", "/data/bench/x")]
    [InlineData("Generated by hand", null)]
    public void TheResultsPageNamesItsReportOnItsGeneratedByLine(string line, string? report) =>
        Assert.Equal(report, PublishedBenchReport.NamedReport(["# Results", "", line]));

    private void ResultsPage(string report)
    {
        Directory.CreateDirectory(Path.Combine(_root, "docs"));
        File.WriteAllText(Path.Combine(_root, "docs", "RESULTS.md"),
            $"# Results\n\n<!-- Generated: do not edit. Regenerate with the command below. -->\nGenerated by `lab report {report} --results docs/RESULTS.md --readme README.md` from the runs of 2026-11-27.\n");
    }

    private void Cell(string report, string storage, string scenario, long confirmedRps, int nodes = 0)
    {
        var dir = Path.Combine(_root, report, "runs", nodes > 1 ? $"{storage}-x{nodes}" : storage, scenario);
        Directory.CreateDirectory(dir);
        File.WriteAllText(Path.Combine(dir, "phout.log"), "");
        new RunMeta { Storage = storage, Scenario = scenario, Nodes = nodes }.Write(Path.Combine(dir, "meta.json"));
        CapacityFile.Of([new RepeatRecord(1, confirmedRps, 4.2)], [], 10).Write(dir);
    }

    private (int Code, string Output, string Error) Matrix(params string[] args)
    {
        var (output, error) = (new StringWriter(), new StringWriter());
        var code = CrashCli.Run(["matrix", "--url", "http://127.0.0.1:19300", "--service-dir", _root, "--services", "script/services", "--catalogue", Catalogue,
            "--out", Path.Combine(_root, "out"), "--root", _root, "--plan", .. args], output, error);
        return (code, output.ToString(), error.ToString());
    }
}
