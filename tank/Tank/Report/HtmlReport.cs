using System.Net;
using System.Text;

namespace Tank.Report;

/// <summary>report.html: one self-contained file (inline CSS and SVG, no scripts or links) that opens offline.</summary>
public static class HtmlReport
{
    public static string Render(ReportInput input, IReadOnlyList<RunAnalysis> runs, double sloMs, DateTimeOffset generated,
        string comparisonSvg, IReadOnlyDictionary<string, string> runSvgs)
    {
        var html = new StringBuilder();
        html.AppendLine("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">");
        html.AppendLine($"<title>Storage architectures under load — {generated:yyyy-MM-dd HH:mm} UTC</title>");
        html.AppendLine("<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;margin:1em 0}" +
                        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}" +
                        "th{background:#f3f3f3}svg{max-width:100%;height:auto}</style></head><body>");
        html.AppendLine($"<h1>Storage architectures under load — {generated:yyyy-MM-dd HH:mm} UTC</h1>");
        html.AppendLine("<h2>Summary</h2>");
        var (header, rows) = ReportText.Summary(runs);
        Table(html, header, rows);
        html.AppendLine($"<p>{Enc(ReportText.Method(sloMs)).Replace("`", "")}</p>");
        html.AppendLine(comparisonSvg);
        html.AppendLine("<h2>Machine, servers and durability</h2>");
        Table(html, ["", ""], ReportText.Environment(input.Environment).Select(l => new[] { l.Key, l.Value }).ToList());
        var durability = runs.Where(r => r.Durability is not null).DistinctBy(r => r.Storage).ToList();
        if (durability.Count > 0) Table(html, ["architecture", "durability"], durability.Select(r => new[] { r.Storage, r.Durability! }).ToList());
        html.AppendLine("<h2>Every run</h2><p>Latencies in ms.</p>");
        Table(html, ReportText.RunColumns, runs.Select(ReportText.RunRow).ToList());
        html.AppendLine("<h2>Over time</h2>");
        foreach (var run in runs)
        {
            html.AppendLine($"<h3>{Enc(run.Storage)} · {Enc(run.Scenario)}</h3><p>schedule <code>{Enc(run.Schedule ?? "unknown")}</code>" +
                            $"{(run.Autostop is null ? "" : $"; stopped by autostop: {Enc(run.Autostop)}")}</p>");
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
