using System.Globalization;
using System.Text;
using Harness.CommandLine;
using Lab.Compare;

namespace Lab.Bench;

/// <summary>One minute of script/check-capacity: a cell's published capacity R run at <see cref="Factor"/> × R, the <see cref="Minute"/>-th time.</summary>
public sealed record CapacityCheckRun(string Storage, string Scenario, double Factor, int Minute, long Rate, double P99Ms, double ErrorRate, bool Passed)
{
    /// <summary>At R the SLO must hold (the figure is a rate the stack holds); above it, it must not (the figure is near the knee).</summary>
    public bool MustHold => Factor <= 1;
}

/// <summary>
/// One side of a cell's check, every minute run at one rate. A single minute's p99 at the knee is one draw of a
/// noisy quantity (one stall more or less decides it), so the side is decided by the majority of its minutes: the
/// same judgement as "the median minute passed", and with one minute that minute's.
/// </summary>
public sealed record CapacityCheckSide(string Storage, string Scenario, double Factor, long Rate, IReadOnlyList<CapacityCheckRun> Minutes)
{
    public bool MustHold => Factor <= 1;

    public int MinutesPassed => Minutes.Count(m => m.Passed);

    public bool Passed => MinutesPassed * 2 > Minutes.Count;

    /// <summary>The median of the minutes' p99s (the lower middle one for an even count).</summary>
    public double MedianP99Ms => Minutes.Select(m => m.P99Ms).Order().ElementAt((Minutes.Count - 1) / 2);
}

/// <summary>
/// The judgement of script/check-capacity: each cell's figure R from the bench report, its minutes at R and at
/// factor × R from the check's report (REPORT/check/summary.json, runs named <c>scenario-x1-m1</c>,
/// <c>scenario-x&lt;factor&gt;-m1</c>, … one per minute; <c>scenario-x1</c> alone is a first minute). A minute
/// passes when p99 ≤ the report's SLO with errors under the bench's max_error_rate (the report's profile.yaml, as
/// its holds were judged) at R, and p99 over the SLO (or more errors) at factor × R; a side passes when most of its
/// minutes do, and a cell when both sides do: its figure is then within (factor − 1) below the knee.
/// </summary>
public static class CapacityCheck
{
    /// <summary>The rate the check runs at: factor × R, whole requests per second, rounded down.</summary>
    public static long RateAt(double capacity, double factor) => (long)Math.Floor(capacity * factor);

    /// <summary>Whether a minute gave what its side wants: held the SLO at R, or missed it above R.</summary>
    public static bool Passes(bool mustHold, double p99Ms, double errorRate, double sloMs, double maxErrorRate) =>
        mustHold ? p99Ms <= sloMs && errorRate < maxErrorRate : p99Ms > sloMs || errorRate >= maxErrorRate;

    /// <exception cref="InputException">A report without its profile.yaml, a cell it has no confirmed capacity for, or a side the check ran no minute of.</exception>
    public static (double SloMs, IReadOnlyList<CapacityCheckSide> Sides) Judge(string reportDir, IReadOnlyList<string> storages, string scenario, double factor)
    {
        var report = ReportFileReader.Read(reportDir);
        var check = ReportFileReader.Read(Path.Combine(reportDir, "check"));
        var profile = Path.Combine(reportDir, "profile.yaml");
        if (!File.Exists(profile)) throw new InputException(profile, "file", "missing: the check judges errors by the bench's own max_error_rate");
        var maxErrorRate = ProfileFile.Read([profile]).MaxErrorRate;
        var sides = new List<CapacityCheckSide>();
        foreach (var storage in storages)
        {
            var cell = report.Cells.FirstOrDefault(c => c.Storage == storage && c.Scenario == scenario && c.Confirmed)
                ?? throw new InputException(report.Path, storage, $"no confirmed capacity for {scenario} on {storage}");
            foreach (var f in new[] { 1, factor })
            {
                var rate = RateAt(cell.Capacity.Value, f);
                var minutes = check.Cells
                    .Where(c => c.Storage == storage)
                    .Select(c => (Cell: c, Name: MinuteOf(c.Scenario, scenario)))
                    .Where(m => m.Name is { } n && n.Factor == f)
                    .OrderBy(m => m.Name!.Value.Minute)
                    .Select(m => new CapacityCheckRun(storage, scenario, f, m.Name!.Value.Minute, rate, m.Cell.P99Ms.Value, m.Cell.ErrorRate,
                        Passes(f <= 1, m.Cell.P99Ms.Value, m.Cell.ErrorRate, report.SloMs, maxErrorRate)))
                    .ToList();
                if (minutes.Count == 0) throw new InputException(check.Path, storage, $"no run {scenario}-x{F(f)} on {storage}: did the check run it?");
                sides.Add(new CapacityCheckSide(storage, scenario, f, rate, minutes));
            }
        }
        return (report.SloMs, sides);
    }

    /// <summary>The table script/check-capacity prints: a line per minute, then a line per side with its verdict.</summary>
    public static string Table(double sloMs, IReadOnlyList<CapacityCheckSide> sides)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"{"architecture",-20} {"scenario",-20} {"rate",10} {"p99 ms",10} {"errors",8}  result");
        foreach (var side in sides)
        {
            var want = side.MustHold ? "held" : "missed";
            foreach (var run in side.Minutes)
                text.AppendLine(CultureInfo.InvariantCulture,
                    $"{run.Storage,-20} {$"{run.Scenario}-x{F(run.Factor)} #{run.Minute}",-20} {run.Rate,10} {run.P99Ms,10:0.###} {run.ErrorRate,8:0.####}  {(run.Passed ? want : "not " + want)}");
            var count = $"{side.MinutesPassed} of {side.Minutes.Count} minute{(side.Minutes.Count == 1 ? "" : "s")} {want} the {F(sloMs)}-ms SLO, median p99 {side.MedianP99Ms:0.###} ms";
            var result = side.Passed ? $"ok: {count}" : $"FAILED: p99 should have {want} the {F(sloMs)}-ms SLO; {count}";
            text.AppendLine(CultureInfo.InvariantCulture, $"{side.Storage,-20} {$"{side.Scenario}-x{F(side.Factor)}",-20} {side.Rate,10} {"",10} {"",8}  {result}");
        }
        return text.ToString();
    }

    /// <summary>
    /// The factor and minute a check run's scenario names (<c>author-read-x1.3-m2</c> → (1.3, 2); <c>author-read-x1.3</c>
    /// → (1.3, 1)); null for another scenario's run.
    /// </summary>
    public static (double Factor, int Minute)? MinuteOf(string runScenario, string scenario)
    {
        if (!runScenario.StartsWith(scenario + "-x", StringComparison.Ordinal)) return null;
        var rest = runScenario.AsSpan(scenario.Length + 2);
        var minute = 1;
        var dash = rest.IndexOf("-m", StringComparison.Ordinal);
        if (dash >= 0)
        {
            if (!int.TryParse(rest[(dash + 2)..], NumberStyles.None, CultureInfo.InvariantCulture, out minute) || minute < 1) return null;
            rest = rest[..dash];
        }
        return double.TryParse(rest, NumberStyles.Float, CultureInfo.InvariantCulture, out var factor) ? (factor, minute) : null;
    }

    private static string F(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);
}
