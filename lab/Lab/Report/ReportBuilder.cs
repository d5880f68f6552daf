using System.Text.Json;
using Lab.Metrics;

namespace Lab.Report;

/// <summary>
/// Builds report.md, report.html, summary.json, charts/*.svg and each run's latency.hgrm from a run directory. Every run is
/// analysed before anything is written, so a bad phout file leaves no partial report behind.
/// </summary>
public static class ReportBuilder
{
    public static IReadOnlyList<RunAnalysis> Build(string directory, double sloMs)
    {
        var input = ReportInput.Discover(directory);
        var runs = input.Runs
            .Select(r => PhoutAnalyzer.Analyze(Path.Combine(r.Dir, "phout.log"), r.Storage, r.Scenario, r.Meta, sloMs) with { Queue = r.Queue, Capacity = CapacityFile.TryRead(r.Dir), Server = ServerView.Read(r.Dir, r.Meta?.Storage ?? r.Storage) })
            .ToList();
        var generated = DateTimeOffset.UtcNow;
        var comparison = ComparisonChart.Render(runs, sloMs);
        var timelines = runs.ToDictionary(r => r.Id, r => TimelineChart.Render(r, sloMs));
        var storageOrder = runs.Select(r => r.Storage).Distinct().ToList();
        var scenarioCharts = ReportText.Summary(runs).Header.Skip(1).Select(h => h[..h.IndexOf(':')]).ToList();
        var latencyThroughput = scenarioCharts.ToDictionary(s => s, s => LatencyThroughputChart.Render(s, runs.Where(r => r.Scenario == s).ToList(), sloMs, storageOrder));
        var spectra = scenarioCharts.ToDictionary(s => s, s => SpectrumChart.Render(s, runs.Where(r => r.Scenario == s).ToList(), sloMs, storageOrder));
        var crossChecks = CrossCheckReader.Read(directory);

        var charts = Path.Combine(directory, "charts");
        Directory.CreateDirectory(charts);
        File.WriteAllText(Path.Combine(charts, "comparison.svg"), comparison);
        foreach (var (id, svg) in timelines) File.WriteAllText(Path.Combine(charts, id + ".svg"), svg);
        foreach (var (scenario, svg) in latencyThroughput) File.WriteAllText(Path.Combine(charts, $"latency-throughput-{scenario}.svg"), svg);
        foreach (var (scenario, svg) in spectra) File.WriteAllText(Path.Combine(charts, $"spectrum-{scenario}.svg"), svg);
        foreach (var (run, dir) in runs.Zip(input.Runs, (run, r) => (run, r.Dir)))
            if (run.Spectrum is { } spectrum) File.WriteAllText(Path.Combine(dir, "latency.hgrm"), spectrum.Hgrm());
        File.WriteAllText(Path.Combine(directory, "report.md"), MarkdownReport.Render(input, runs, sloMs, generated, crossChecks, scenarioCharts));
        File.WriteAllText(Path.Combine(directory, "report.html"), HtmlReport.Render(input, runs, sloMs, generated, comparison, timelines, crossChecks, latencyThroughput, spectra));
        File.WriteAllText(Path.Combine(directory, "summary.json"), ReportSummary.Json(input, runs, crossChecks, sloMs, generated));
        return runs;
    }
}
