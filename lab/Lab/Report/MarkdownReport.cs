using System.Text;

namespace Lab.Report;

/// <summary>report.md: tables plus links to the SVG charts in charts/.</summary>
public static class MarkdownReport
{
    public static string Render(ReportInput input, IReadOnlyList<RunAnalysis> runs, double sloMs, DateTimeOffset generated,
        IReadOnlyList<CrossCheck> crossChecks, IReadOnlyList<string> scenarioCharts)
    {
        var md = new StringBuilder();
        md.AppendLine($"# Storage architectures under load — {generated:yyyy-MM-dd HH:mm} UTC").AppendLine();
        var warnings = ReportSections.Warnings(runs, crossChecks);
        if (warnings.Count > 0)
        {
            md.AppendLine("> **⚠ Warning: do not trust these runs as they stand**").AppendLine(">");
            foreach (var warning in warnings) md.AppendLine($"> - {warning}");
            md.AppendLine();
        }
        md.Append(Verdicts.VerdictSection.Markdown(runs, sloMs));
        md.AppendLine("## Summary").AppendLine();
        var (header, rows) = ReportText.Summary(runs);
        Table(md, header, rows);
        md.AppendLine().AppendLine(ReportText.Method(sloMs) + ReportText.CapacityMethod(runs)).AppendLine();
        md.AppendLine("![architectures compared](charts/comparison.svg)").AppendLine();
        md.AppendLine("## Latency against throughput").AppendLine();
        md.AppendLine("Each point is one second of a run: the rate answered in it and its p99 (dots, solid) and p50 (dashed). Further right before the curve rises past the SLO line is better.").AppendLine();
        foreach (var scenario in scenarioCharts) md.AppendLine($"![{scenario}](charts/latency-throughput-{scenario}.svg)").AppendLine();
        md.AppendLine("## Latency spectrum").AppendLine().AppendLine(ReportSections.SpectrumMethod).AppendLine();
        foreach (var scenario in scenarioCharts) md.AppendLine($"![{scenario} spectrum](charts/spectrum-{scenario}.svg)").AppendLine();
        md.AppendLine("## Where the CPU went").AppendLine();
        var cpuRows = ReportSections.CpuRows(runs);
        if (cpuRows.Count == 0) md.AppendLine("Not recorded (the runs' meta.json hold no CPU figures; pass `tank run --cpu name=pid`).");
        else
        {
            Table(md, ReportSections.CpuColumns(runs), cpuRows);
            md.AppendLine().AppendLine(ReportSections.CpuMethod(runs));
        }
        md.AppendLine();
        md.AppendLine("## Server-side view").AppendLine();
        if (!ReportSections.HasServerView(runs)) md.AppendLine("Missing: no run has the service's /metrics scraped before and after it (an older run, or /metrics unreachable).");
        else
        {
            Table(md, ReportSections.ServerColumns, ReportSections.ServerRows(runs));
            md.AppendLine().AppendLine(ReportSections.ServerMethod);
        }
        md.AppendLine();
        if (crossChecks.Count > 0)
        {
            md.AppendLine("## Cross-check with wrk").AppendLine();
            Table(md, ReportSections.CrossCheckColumns, ReportSections.CrossCheckRows(crossChecks));
            md.AppendLine().AppendLine(ReportSections.CrossCheckMethod(crossChecks)).AppendLine();
        }
        if (crossChecks.Any(c => c.Rate is not null))
        {
            md.AppendLine("## Confirmed rates under wrk").AppendLine();
            Table(md, ReportSections.RateCheckColumns, ReportSections.RateCheckRows(crossChecks));
            md.AppendLine().AppendLine(ReportSections.RateCheckMethod(crossChecks)).AppendLine();
        }
        if (RepetitionSection.Rows(runs) is { Count: > 0 } repetitions)
        {
            md.AppendLine("## Repetitions").AppendLine();
            Table(md, RepetitionSection.Columns, repetitions);
            md.AppendLine().AppendLine(RepetitionSection.Method).AppendLine();
        }
        var (profile, rounds) = RepetitionSection.MethodAsRun(input.Directory);
        if (profile is not null)
        {
            md.AppendLine("## The method as run").AppendLine();
            md.AppendLine("The bench's profile (profile.yaml in this folder; `script/bench --profile FILE` runs another):").AppendLine();
            md.AppendLine("```yaml").Append(profile.TrimEnd()).AppendLine().AppendLine("```").AppendLine();
            foreach (var round in rounds) md.AppendLine($"- {round}");
            if (rounds.Count > 0) md.AppendLine();
        }
        md.AppendLine("## Machine, servers and durability").AppendLine();
        Table(md, ["", ""], ReportText.Environment(input.Environment).Select(l => new[] { l.Key, l.Value }).ToList());
        var durability = runs.Where(r => r.Durability is not null).DistinctBy(r => r.Storage).ToList();
        if (durability.Count > 0)
        {
            md.AppendLine();
            Table(md, ["architecture", "durability (from meta.json)"], durability.Select(r => new[] { r.Storage, r.Durability! }).ToList());
        }
        md.AppendLine().AppendLine("## Every run").AppendLine();
        Table(md, ReportText.RunColumns(runs), ReportText.RunRows(runs));
        if (ReportText.HasQueueDepth(runs)) md.AppendLine().AppendLine(ReportSections.QueueDepthMethod);
        if (OperationTable.Rows(runs) is { Count: > 0 } operations)
        {
            md.AppendLine().AppendLine("Per operation:").AppendLine();
            Table(md, OperationTable.Columns, operations);
            md.AppendLine().AppendLine(OperationTable.Method);
        }
        md.AppendLine().AppendLine("Latencies in ms. Schedules:").AppendLine();
        foreach (var run in runs)
            md.AppendLine($"- {run.Storage} · {run.Scenario}: `{run.Schedule ?? "unknown"}` ({run.LoadType}){(run.WarmupSchedule is null ? "" : $", after a warm-up of `{run.WarmupSchedule}`")}" +
                          $"{(run.Autostop is null ? "" : $" — stopped by autostop: {run.Autostop}")}{(run.ColdStart is null ? "" : " — ⚠ measured cold")}" +
                          $"{(run.QueueRanDry ? " — ⚠ queue ran dry" : "")}");
        md.AppendLine().AppendLine("## Over time").AppendLine();
        foreach (var run in runs)
            md.AppendLine($"### {run.Storage} · {run.Scenario}").AppendLine().AppendLine($"![{run.Id}](charts/{run.Id}.svg)").AppendLine();
        return md.ToString();
    }

    private static void Table(StringBuilder md, IReadOnlyList<string> header, List<string[]> rows)
    {
        md.AppendLine("| " + string.Join(" | ", header.Select(Cell)) + " |");
        md.AppendLine("|" + string.Concat(header.Select(_ => "---|")));
        foreach (var row in rows) md.AppendLine("| " + string.Join(" | ", row.Select(Cell)) + " |");
    }

    private static string Cell(string text) => text.Replace("|", "\\|").Replace("\n", " ");
}
