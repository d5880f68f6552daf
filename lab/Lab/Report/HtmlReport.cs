using System.Net;
using System.Text;

namespace Lab.Report;

/// <summary>report.html: one self-contained file (inline CSS and SVG, no scripts or links) that opens offline.</summary>
public static class HtmlReport
{
    public static string Render(ReportInput input, IReadOnlyList<RunAnalysis> runs, double sloMs, DateTimeOffset generated,
        string comparisonSvg, IReadOnlyDictionary<string, string> runSvgs, IReadOnlyList<CrossCheck> crossChecks,
        IReadOnlyDictionary<string, string> scenarioSvgs, IReadOnlyDictionary<string, string> spectrumSvgs)
    {
        var html = new StringBuilder();
        html.AppendLine("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">");
        html.AppendLine($"<title>Storage architectures under load — {generated:yyyy-MM-dd HH:mm} UTC</title>");
        html.AppendLine("<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;margin:1em 0}" +
                        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}" +
                        "th{background:#f3f3f3}svg{max-width:100%;height:auto}" +
                        ".warn{border:2px solid #d62728;background:#fdecea;padding:0.5em 1em;margin:1em 0}.warn strong{color:#b00}</style></head><body>");
        html.AppendLine($"<h1>Storage architectures under load — {generated:yyyy-MM-dd HH:mm} UTC</h1>");
        var warnings = ReportSections.Warnings(runs, crossChecks);
        if (warnings.Count > 0)
        {
            html.AppendLine("<div class=\"warn\"><strong>⚠ Warning: do not trust these runs as they stand</strong><ul>");
            foreach (var warning in warnings) html.AppendLine($"<li>{Enc(warning)}</li>");
            html.AppendLine("</ul></div>");
        }
        html.Append(Verdicts.VerdictSection.Html(runs, sloMs));
        html.AppendLine("<h2>Summary</h2>");
        var (header, rows) = ReportText.Summary(runs);
        Table(html, header, rows);
        html.AppendLine($"<p>{Enc(ReportText.Method(sloMs) + ReportText.CapacityMethod(runs)).Replace("`", "")}</p>");
        html.AppendLine(comparisonSvg);
        html.AppendLine("<h2>Latency against throughput</h2><p>Each point is one second of a run: the rate answered in it and its p99 (dots, solid) " +
                        "and p50 (dashed). Further right before the curve rises past the SLO line is better.</p>");
        foreach (var svg in scenarioSvgs.Values) html.AppendLine(svg);
        html.AppendLine($"<h2>Latency spectrum</h2><p>{Enc(ReportSections.SpectrumMethod)}</p>");
        foreach (var svg in spectrumSvgs.Values) html.AppendLine(svg);
        html.AppendLine("<h2>Where the CPU went</h2>");
        var cpuRows = ReportSections.CpuRows(runs);
        if (cpuRows.Count == 0) html.AppendLine("<p>Not recorded (the runs' meta.json hold no CPU figures).</p>");
        else
        {
            Table(html, ReportSections.CpuColumns(runs), cpuRows);
            html.AppendLine($"<p>{Enc(ReportSections.CpuMethod(runs))}</p>");
        }
        html.AppendLine("<h2>Server-side view</h2>");
        if (!ReportSections.HasServerView(runs)) html.AppendLine("<p>Missing: no run has the service's /metrics scraped before and after it (an older run, or /metrics unreachable).</p>");
        else
        {
            Table(html, ReportSections.ServerColumns, ReportSections.ServerRows(runs));
            html.AppendLine($"<p>{Enc(ReportSections.ServerMethod)}</p>");
        }
        if (crossChecks.Count > 0)
        {
            html.AppendLine("<h2>Cross-check with wrk</h2>");
            Table(html, ReportSections.CrossCheckColumns, ReportSections.CrossCheckRows(crossChecks));
            html.AppendLine($"<p>{Enc(ReportSections.CrossCheckMethod(crossChecks)).Replace("`", "")}</p>");
        }
        if (crossChecks.Any(c => c.Rate is not null))
        {
            html.AppendLine("<h2>Confirmed rates under wrk</h2>");
            Table(html, ReportSections.RateCheckColumns, ReportSections.RateCheckRows(crossChecks));
            html.AppendLine($"<p>{Enc(ReportSections.RateCheckMethod(crossChecks)).Replace("`", "")}</p>");
        }
        if (RepetitionSection.Rows(runs) is { Count: > 0 } repetitions)
        {
            html.AppendLine("<h2>Repetitions</h2>");
            Table(html, RepetitionSection.Columns, repetitions);
            html.AppendLine($"<p>{Enc(RepetitionSection.Method)}</p>");
        }
        var (profile, rounds) = RepetitionSection.MethodAsRun(input.Directory);
        if (profile is not null)
        {
            html.AppendLine("<h2>The method as run</h2><p>The bench's profile (profile.yaml in this folder; script/bench --profile FILE runs another):</p>");
            html.AppendLine($"<pre>{Enc(profile.TrimEnd())}</pre>");
            if (rounds.Count > 0) html.AppendLine("<ul>" + string.Concat(rounds.Select(r => $"<li>{Enc(r)}</li>")) + "</ul>");
        }
        html.AppendLine("<h2>Machine, servers and durability</h2>");
        Table(html, ["", ""], ReportText.Environment(input.Environment).Select(l => new[] { l.Key, l.Value }).ToList());
        var durability = runs.Where(r => r.Durability is not null).DistinctBy(r => r.Storage).ToList();
        if (durability.Count > 0) Table(html, ["architecture", "durability"], durability.Select(r => new[] { r.Storage, r.Durability! }).ToList());
        html.AppendLine("<h2>Every run</h2><p>Latencies in ms.</p>");
        Table(html, ReportText.RunColumns(runs), ReportText.RunRows(runs));
        if (ReportText.HasQueueDepth(runs)) html.AppendLine($"<p>{Enc(ReportSections.QueueDepthMethod)}</p>");
        if (OperationTable.Rows(runs) is { Count: > 0 } operations)
        {
            html.AppendLine("<h3>Per operation</h3>");
            Table(html, OperationTable.Columns, operations);
            html.AppendLine($"<p>{Enc(OperationTable.Method)}</p>");
        }
        html.AppendLine("<h2>Over time</h2>");
        foreach (var run in runs)
        {
            html.AppendLine($"<h3>{Enc(run.Storage)} · {Enc(run.Scenario)}</h3><p>schedule <code>{Enc(run.Schedule ?? "unknown")}</code> ({Enc(run.LoadType)})" +
                            $"{(run.WarmupSchedule is null ? "" : $", after a warm-up of <code>{Enc(run.WarmupSchedule)}</code>")}" +
                            $"{(run.Autostop is null ? "" : $"; stopped by autostop: {Enc(run.Autostop)}")}" +
                            $"{(run.ColdStart is null ? "" : $"; <strong style=\"color:#b00\">⚠ {Enc(run.ColdStart.Explain(run))}</strong>")}" +
                            $"{(run.Queue is null ? "" : $"; {Enc(ReportText.QueueDepthColumn)}: {Enc(ReportText.QueueDepth(run))}")}" +
                            $"{(run.QueueRanDry ? $"; <strong style=\"color:#b00\">⚠ Queue ran dry: {Enc(ReportSections.QueueDry(run))}</strong>" : "")}</p>");
            html.AppendLine(runSvgs[run.Id]);
        }
        return html.AppendLine("</body></html>").ToString();
    }

    private static void Table(StringBuilder html, IReadOnlyList<string> header, List<string[]> rows)
    {
        html.Append("<table><tr>").Append(string.Concat(header.Select(h => $"<th>{Enc(h)}</th>"))).AppendLine("</tr>");
        foreach (var row in rows) html.Append("<tr>").Append(string.Concat(row.Select(c => $"<td>{Enc(c)}</td>"))).AppendLine("</tr>");
        html.AppendLine("</table>");
    }

    private static string Enc(string text) => WebUtility.HtmlEncode(text);
}
