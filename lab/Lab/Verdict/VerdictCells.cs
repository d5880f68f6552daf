using Lab.Compare;
using Lab.Report;
using Harness.CommandLine;

namespace Lab.Verdicts;

/// <summary>
/// The cells a verdict judges at a given SLO. summary.json's capacities were found at the report's
/// own SLO: at that SLO they are used as they are (confirmed capacities included); at another, each
/// run's phout.log under the report folder is analysed again at the asked SLO (single runs then,
/// no confirmed capacity), and without them the question cannot be answered.
/// </summary>
public static class VerdictCells
{
    public static (IReadOnlyList<CellFigures> Cells, string Source) At(string reportFolder, double sloMs)
    {
        var report = ReportFileReader.Read(reportFolder);
        if (Math.Abs(report.SloMs - sloMs) < 1e-9) return (report.Cells, $"{report.Path} (SLO {VerdictJudge.N(sloMs)} ms)");
        var folder = Path.GetDirectoryName(report.Path)!;
        if (!Directory.Exists(Path.Combine(folder, "runs")))
            throw new InputException(report.Path, "slo_ms", $"the report was computed at p99 ≤ {VerdictJudge.N(report.SloMs)} ms and its runs/ are not there to recompute it at {VerdictJudge.N(sloMs)} ms (run lab report --slo-ms {VerdictJudge.N(sloMs)}, or ask at the report's SLO)");
        var input = ReportInput.Discover(folder);
        var runs = input.Runs.Select(r => PhoutAnalyzer.Analyze(Path.Combine(r.Dir, "phout.log"), r.Storage, r.Scenario, r.Meta, sloMs)).ToList();
        return (RunCells.From(runs), $"{folder}/runs (phout.log analysed again at p99 ≤ {VerdictJudge.N(sloMs)} ms; the report's own SLO is {VerdictJudge.N(report.SloMs)} ms)");
    }
}
