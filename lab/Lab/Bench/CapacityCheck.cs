using System.Globalization;
using System.Text;
using Harness.CommandLine;
using Lab.Compare;

namespace Lab.Bench;

/// <summary>One minute of script/check-capacity: a cell's published capacity R run at <see cref="Factor"/> × R.</summary>
public sealed record CapacityCheckRun(string Storage, string Scenario, double Factor, long Rate, double P99Ms, double ErrorRate, bool Passed)
{
    /// <summary>At R the SLO must hold (the figure is a rate the stack holds); above it, it must not (the figure is near the knee).</summary>
    public bool MustHold => Factor <= 1;
}

/// <summary>
/// The judgement of script/check-capacity: each cell's figure R from the bench report, its minute at R and at
/// factor × R from the check's report (REPORT/check/summary.json, runs named <c>scenario-x1</c> and
/// <c>scenario-x&lt;factor&gt;</c>). A cell passes when p99 ≤ the report's SLO with errors under the bench's
/// max_error_rate (the report's profile.yaml, as its holds were judged) at R, and p99 over the SLO (or more errors)
/// at factor × R: its figure is then within (factor − 1) below the knee.
/// </summary>
public static class CapacityCheck
{
    /// <summary>The rate the check runs at: factor × R, whole requests per second, rounded down.</summary>
    public static long RateAt(double capacity, double factor) => (long)Math.Floor(capacity * factor);

    /// <summary>Whether a minute gave what its side wants: held the SLO at R, or missed it above R.</summary>
    public static bool Passes(bool mustHold, double p99Ms, double errorRate, double sloMs, double maxErrorRate) =>
        mustHold ? p99Ms <= sloMs && errorRate < maxErrorRate : p99Ms > sloMs || errorRate >= maxErrorRate;

    /// <exception cref="InputException">A report without its profile.yaml, a cell it has no confirmed capacity for, or a minute the check did not run.</exception>
    public static (double SloMs, IReadOnlyList<CapacityCheckRun> Runs) Judge(string reportDir, IReadOnlyList<string> storages, string scenario, double factor)
    {
        var report = ReportFileReader.Read(reportDir);
        var check = ReportFileReader.Read(Path.Combine(reportDir, "check"));
        var profile = Path.Combine(reportDir, "profile.yaml");
        if (!File.Exists(profile)) throw new InputException(profile, "file", "missing: the check judges errors by the bench's own max_error_rate");
        var maxErrorRate = ProfileFile.Read([profile]).MaxErrorRate;
        var runs = new List<CapacityCheckRun>();
        foreach (var storage in storages)
        {
            var cell = report.Cells.FirstOrDefault(c => c.Storage == storage && c.Scenario == scenario && c.Confirmed)
                ?? throw new InputException(report.Path, storage, $"no confirmed capacity for {scenario} on {storage}");
            foreach (var f in new[] { 1, factor })
            {
                var minute = check.Cells.FirstOrDefault(c => c.Storage == storage && FactorOf(c.Scenario, scenario) == f)
                    ?? throw new InputException(check.Path, storage, $"no run {scenario}-x{F(f)} on {storage}: did the check run it?");
                runs.Add(new CapacityCheckRun(storage, scenario, f, RateAt(cell.Capacity.Value, f), minute.P99Ms.Value, minute.ErrorRate,
                    Passes(f <= 1, minute.P99Ms.Value, minute.ErrorRate, report.SloMs, maxErrorRate)));
            }
        }
        return (report.SloMs, runs);
    }

    /// <summary>The table script/check-capacity prints, a line per minute.</summary>
    public static string Table(double sloMs, IReadOnlyList<CapacityCheckRun> runs)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"{"architecture",-20} {"scenario",-20} {"rate",10} {"p99 ms",10} {"errors",8}  result");
        foreach (var run in runs)
        {
            var want = run.MustHold ? "held" : "missed";
            var result = run.Passed ? $"ok: p99 {want} the {F(sloMs)}-ms SLO" : $"FAILED: p99 should have {want} the {F(sloMs)}-ms SLO";
            text.AppendLine(CultureInfo.InvariantCulture, $"{run.Storage,-20} {$"{run.Scenario}-x{F(run.Factor)}",-20} {run.Rate,10} {run.P99Ms,10:0.###} {run.ErrorRate,8:0.####}  {result}");
        }
        return text.ToString();
    }

    /// <summary>The factor a check run's scenario names (<c>author-read-x1.3</c> → 1.3); null for another scenario's run.</summary>
    public static double? FactorOf(string runScenario, string scenario) =>
        runScenario.StartsWith(scenario + "-x", StringComparison.Ordinal)
        && double.TryParse(runScenario.AsSpan(scenario.Length + 2), NumberStyles.Float, CultureInfo.InvariantCulture, out var factor)
            ? factor : null;

    private static string F(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);
}
