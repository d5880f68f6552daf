using System.Text.Json;

namespace Tank.Report;

/// <summary>
/// Builds report.md, report.html, summary.json and charts/*.svg from a run directory. Every run is
/// analysed before anything is written, so a bad phout file leaves no partial report behind.
/// </summary>
public static class ReportBuilder
{
    public static IReadOnlyList<RunAnalysis> Build(string directory, double sloMs)
    {
        var input = ReportInput.Discover(directory);
        var runs = input.Runs
            .Select(r => PhoutAnalyzer.Analyze(Path.Combine(r.Dir, "phout.log"), r.Storage, r.Scenario, r.Meta, sloMs))
            .ToList();
        var generated = DateTimeOffset.UtcNow;
        var comparison = ComparisonChart.Render(runs, sloMs);
        var timelines = runs.ToDictionary(r => r.Id, r => TimelineChart.Render(r, sloMs));

        var charts = Path.Combine(directory, "charts");
        Directory.CreateDirectory(charts);
        File.WriteAllText(Path.Combine(charts, "comparison.svg"), comparison);
        foreach (var (id, svg) in timelines) File.WriteAllText(Path.Combine(charts, id + ".svg"), svg);
        File.WriteAllText(Path.Combine(directory, "report.md"), MarkdownReport.Render(input, runs, sloMs, generated));
        File.WriteAllText(Path.Combine(directory, "report.html"), HtmlReport.Render(input, runs, sloMs, generated, comparison, timelines));
        File.WriteAllText(Path.Combine(directory, "summary.json"), Summary(input, runs, sloMs, generated));
        return runs;
    }

    private static string Summary(ReportInput input, IReadOnlyList<RunAnalysis> runs, double sloMs, DateTimeOffset generated) =>
        JsonSerializer.Serialize(new
        {
            generated_at = generated,
            slo_ms = sloMs,
            max_error_rate = PhoutAnalyzer.MaxErrorRate,
            environment = input.Environment,
            runs = runs.Select(r => new
            {
                storage = r.Storage,
                scenario = r.Scenario,
                schedule = r.Schedule,
                durability = r.Durability,
                requests = r.Requests,
                duration_s = Math.Round(r.DurationSeconds, 3),
                achieved_rps = Math.Round(r.AchievedRps, 1),
                mean_ms = Math.Round(r.MeanMs, 3),
                quantiles_ms = r.QuantilesMs,
                max_ms = r.MaxMs,
                errors = r.Errors,
                error_rate = r.ErrorRate,
                http_codes = r.HttpCodes.ToDictionary(c => c.Key.ToString(), c => c.Value),
                net_codes = r.NetCodes.ToDictionary(c => c.Key.ToString(), c => c.Value),
                max_sustained_rps = r.MaxSustainedRps,
                send_lateness_p99_us = r.SendLatenessP99Us,
                exit_code = r.ExitCode,
                autostop = r.Autostop,
            }),
        }, new JsonSerializerOptions { WriteIndented = true }) + "\n";
}
