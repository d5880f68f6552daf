using System.Text.Json;
using Harness.CommandLine;

namespace Lab.Compare;

/// <summary>
/// reports/history.jsonl: one line per report (build, date, machine, SLO and each cell's capacity,
/// p99 and CPU per request), appended by <c>lab history</c>, so a series of runs can be charted
/// or compared without keeping every run folder.
/// </summary>
public static class HistoryFile
{
    private static readonly JsonSerializerOptions Json = new() { Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>The line for <paramref name="report"/>, without its newline.</summary>
    public static string Line(ReportFile report, string? build) => JsonSerializer.Serialize(new
    {
        build = build ?? EnvironmentText(report, "build") ?? "unknown",
        date = report.GeneratedAt,
        machine = report.Environment is { } env && env.TryGetProperty("machine", out var machine) ? machine : (JsonElement?)null,
        report = Path.GetFullPath(Path.GetDirectoryName(report.Path)!),
        slo_ms = report.SloMs,
        cells = report.Cells.Select(c => new
        {
            storage = c.Storage,
            scenario = c.Scenario,
            capacity_rps = c.Capacity.Value,
            capacity_min = c.Capacity.Spread.Min,
            capacity_max = c.Capacity.Spread.Max,
            confirmed = c.Confirmed,
            lower_bound = c.LowerBound,
            p99_ms = c.P99Ms.Value,
            cpu_us_per_request = c.CpuUsPerRequest?.Value,
        }),
    }, Json);

    public static void Append(string file, string line)
    {
        var dir = Path.GetDirectoryName(Path.GetFullPath(file))!;
        Directory.CreateDirectory(dir);
        File.AppendAllText(file, line + "\n");
    }

    /// <summary>The lines of <paramref name="file"/>, each parsed; a malformed line is bad input naming its line number.</summary>
    public static IReadOnlyList<JsonElement> Read(string file)
    {
        if (!File.Exists(file)) return [];
        return File.ReadAllLines(file).Select((line, i) => (line, i)).Where(l => l.line.Length > 0).Select(l =>
        {
            try { return JsonDocument.Parse(l.line).RootElement.Clone(); }
            catch (JsonException e) { throw new InputException(file, $"line {l.i + 1}, byte {(e.BytePositionInLine ?? 0) + 1}", $"not valid JSON: {e.Message}"); }
        }).ToList();
    }

    private static string? EnvironmentText(ReportFile report, string name) =>
        report.Environment is { } env && env.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;
}
