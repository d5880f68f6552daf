using System.Text;
using System.Text.Json;

namespace Lab.Compare;

/// <summary>What <c>lab compare</c> prints: the table, then the cells that got worse, by name.</summary>
public static class ComparisonText
{
    public static string Render(ReportFile baseReport, ReportFile newReport, IReadOnlyList<CellComparison> cells, double thresholdPercent)
    {
        var text = new StringBuilder();
        text.AppendLine($"BASE {baseReport.Path} ({baseReport.GeneratedAt ?? "date unknown"}, SLO p99 ≤ {MetricChange.N(baseReport.SloMs)} ms)");
        text.AppendLine($"NEW  {newReport.Path} ({newReport.GeneratedAt ?? "date unknown"}, SLO p99 ≤ {MetricChange.N(newReport.SloMs)} ms)");
        if (baseReport.SloMs != newReport.SloMs) text.AppendLine("note: the reports used different SLOs, so their capacities measure different things");
        if (MachineDifference(baseReport.Environment, newReport.Environment) is { } machines)
            text.AppendLine($"note: the runs' machines differ ({machines}): a change in any cell may be the machine's, not the build's");
        text.AppendLine();
        var header = new[] { "architecture · scenario" }.Concat(Enum.GetValues<Metric>().Select(m => m.Name())).Append("verdict").ToArray();
        var rows = cells.Select(c => new[] { c.Key }.Concat(c.Changes.Select(m => m.Cell())).Append(Verdict(c)).ToArray()).ToList();
        text.Append(TextTable.Render(header, rows));
        text.AppendLine();
        text.AppendLine($"A change counts when it is beyond ±{MetricChange.N(thresholdPercent)} % and the two runs' intervals separate; [a–b] is a cell's interval (the bench's interval of its median capacity, else the min–max of repeated runs). \"unstable\": the intervals overlap and a run's repetitions spread too much to tell.");
        var unstable = cells.Where(c => !c.Regressed && c.Changes.Any(m => m.Judgement == Judgement.Unstable)).ToList();
        if (unstable.Count > 0)
        {
            text.AppendLine($"Could not tell in {unstable.Count} cell{(unstable.Count == 1 ? "" : "s")} (unstable, not \"no difference\"):");
            foreach (var cell in unstable)
                text.AppendLine($"  {cell.Key}: {string.Join("; ", cell.Changes.Where(m => m.Judgement == Judgement.Unstable).Select(m => m.Why))}");
        }
        var worse = cells.Where(c => c.Regressed).ToList();
        if (worse.Count == 0) text.AppendLine("No cell got worse.");
        else
        {
            text.AppendLine($"Worse in {worse.Count} cell{(worse.Count == 1 ? "" : "s")}:");
            foreach (var cell in worse)
                text.AppendLine($"  {cell.Key}: {string.Join(", ", cell.Changes.Where(m => m.Judgement == Judgement.Worse).Select(m => $"{m.Metric.Name()} {m.Cell()}"))}");
        }
        return text.ToString();
    }

    /// <summary>
    /// The fields of the two reports' <c>environment.machine</c> (cores, memory, CPU model, OS, .NET) that differ, as
    /// "cpu: A → B; …"; null when they agree or a report does not say (one before lab report recorded it).
    /// </summary>
    public static string? MachineDifference(JsonElement? baseEnvironment, JsonElement? newEnvironment)
    {
        if (Machine(baseEnvironment) is not { } before || Machine(newEnvironment) is not { } after) return null;
        var names = before.EnumerateObject().Select(p => p.Name).Union(after.EnumerateObject().Select(p => p.Name), StringComparer.Ordinal);
        var differences = names
            .Select(name => (name, a: Text(before, name), b: Text(after, name)))
            .Where(d => d.a != d.b)
            .Select(d => $"{d.name}: {d.a ?? "?"} → {d.b ?? "?"}")
            .ToList();
        return differences.Count == 0 ? null : string.Join("; ", differences);

        static JsonElement? Machine(JsonElement? environment) =>
            environment is { ValueKind: JsonValueKind.Object } env && env.TryGetProperty("machine", out var machine) && machine.ValueKind == JsonValueKind.Object ? machine : null;

        static string? Text(JsonElement machine, string name) =>
            machine.TryGetProperty(name, out var value) ? value.ValueKind == JsonValueKind.String ? value.GetString() : value.GetRawText() : null;
    }

    private static string Verdict(CellComparison cell) =>
        cell.Base is null ? "only in NEW"
        : cell.New is null ? "only in BASE"
        : cell.Regressed ? "WORSE"
        : cell.Improved ? "better"
        : cell.Changes.Any(m => m.Judgement == Judgement.Unstable) ? "unstable"
        : "no difference";
}
