using System.Text;

namespace Tank.Report;

/// <summary>report.md: tables plus links to the SVG charts in charts/.</summary>
public static class MarkdownReport
{
    public static string Render(ReportInput input, IReadOnlyList<RunAnalysis> runs, double sloMs, DateTimeOffset generated)
    {
        var md = new StringBuilder();
        md.AppendLine($"# Storage architectures under load — {generated:yyyy-MM-dd HH:mm} UTC").AppendLine();
        md.AppendLine("## Summary").AppendLine();
        var (header, rows) = ReportText.Summary(runs);
        Table(md, header, rows);
        md.AppendLine().AppendLine(ReportText.Method(sloMs)).AppendLine();
        md.AppendLine("![architectures compared](charts/comparison.svg)").AppendLine();
        md.AppendLine("## Machine, servers and durability").AppendLine();
        Table(md, ["", ""], ReportText.Environment(input.Environment).Select(l => new[] { l.Key, l.Value }).ToList());
        var durability = runs.Where(r => r.Durability is not null).DistinctBy(r => r.Storage).ToList();
        if (durability.Count > 0)
        {
            md.AppendLine();
            Table(md, ["architecture", "durability (from meta.json)"], durability.Select(r => new[] { r.Storage, r.Durability! }).ToList());
        }
        md.AppendLine().AppendLine("## Every run").AppendLine();
        Table(md, ReportText.RunColumns, runs.Select(ReportText.RunRow).ToList());
        md.AppendLine().AppendLine("Latencies in ms. Schedules:").AppendLine();
        foreach (var run in runs)
            md.AppendLine($"- {run.Storage} · {run.Scenario}: `{run.Schedule ?? "unknown"}`{(run.Autostop is null ? "" : $" — stopped by autostop: {run.Autostop}")}");
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
