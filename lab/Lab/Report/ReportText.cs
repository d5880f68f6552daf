using Harness.Charts;
using System.Globalization;
using System.Text.Json;

namespace Lab.Report;

/// <summary>The report's words and table cells, shared by the Markdown and HTML writers.</summary>
public static class ReportText
{
    public static string Ms(double ms) => ms.ToString(ms < 10 ? "0.00" : "0.0", CultureInfo.InvariantCulture);

    public static string Rps(double rps) => rps.ToString("0", CultureInfo.InvariantCulture);

    /// <summary>"≥ N" when the SLO held up to the ramp's top: N is then a lower bound, not a measured limit.</summary>
    public static string Sustained(RunAnalysis run) => (run.SloHeldAtPeak ? "≥ " : "") + Rps(run.MaxSustainedRps);

    public static string Codes(IReadOnlyDictionary<int, long> codes, bool net) =>
        string.Join(", ", codes.Where(c => net ? c.Key != 0 : c.Key is 0 or >= 400).Select(c => $"{c.Key}: {c.Value}")) is { Length: > 0 } s ? s : "—";

    public const string QueueDepthColumn = "queue depth start → end";

    /// <summary>The queue-depth column only appears when some run has a queue.json.</summary>
    public static bool HasQueueDepth(IReadOnlyList<RunAnalysis> runs) => runs.Any(r => r.Queue is not null);

    public static string[] RunColumns(IReadOnlyList<RunAnalysis> runs) =>
    [
        "architecture", "scenario", "requests", "achieved rps", "mean", "p50", "p75", "p90", "p95", "p99", "p99.9", "max", "p50 · p99 actual send", "errors", "HTTP errors", "net errors", "max rps @ SLO", "send late p99", "late > SLO", "dropped",
        .. HasQueueDepth(runs) ? new[] { QueueDepthColumn } : [],
    ];

    public static List<string[]> RunRows(IReadOnlyList<RunAnalysis> runs)
    {
        var queueDepth = HasQueueDepth(runs);
        return runs.Select(r => RunRow(r, queueDepth)).ToList();
    }

    public static string[] RunRow(RunAnalysis r, bool queueDepth) =>
    [
        r.Storage, r.Scenario, r.Requests.ToString(CultureInfo.InvariantCulture), Rps(r.AchievedRps), Ms(r.MeanMs),
        .. PhoutAnalyzer.Quantiles.Select(q => Ms(r.QuantilesMs[q.Name])), Ms(r.MaxMs),
        r.ActualQuantilesMs.Count == 0 ? "—" : $"{Ms(r.ActualQuantilesMs["p50"])} · {Ms(r.ActualQuantilesMs["p99"])}",
        $"{r.Errors} ({(r.ErrorRate * 100).ToString("0.###", CultureInfo.InvariantCulture)} %)",
        Codes(r.HttpCodes, net: false), Codes(r.NetCodes, net: true), Sustained(r),
        Ms(r.SendLatenessP99Us / 1000.0),
        r.LateShots?.ToString(CultureInfo.InvariantCulture) ?? "—",
        r.DroppedShots?.ToString(CultureInfo.InvariantCulture) ?? "—",
        .. queueDepth ? new[] { QueueDepth(r) } : [],
    ];

    /// <summary>"123456 → 789 (prefilled 123000)", "?" for a figure not recorded, "—" without queue.json; a dry read run says so.</summary>
    public static string QueueDepth(RunAnalysis r)
    {
        if (r.Queue is not { } q) return "—";
        static string N(long? n) => n?.ToString(CultureInfo.InvariantCulture) ?? "?";
        return $"{N(q.DepthStart)} → {N(q.DepthEnd)}{(q.Prefilled is { } p ? $" (prefilled {N(p)})" : "")}{(r.QueueRanDry ? " ⚠ ran dry" : "")}";
    }

    /// <summary>
    /// Architecture × scenario: "max rps under the SLO / p99 ms" of the ramp, like the Go benchmark's
    /// summary; with repetitions the capacity and its interval lead, and the ramp's figures follow in
    /// brackets named as the ramp's (an overloaded ramp's "0 under the SLO" beside a capacity would read
    /// as a contradiction). A queue-read run whose queue ran dry is marked: its figures are partly
    /// empty-queue answers.
    /// </summary>
    public static (string[] Header, List<string[]> Rows) Summary(IReadOnlyList<RunAnalysis> runs)
    {
        var scenarios = runs.Select(r => r.Scenario).Distinct().OrderBy(s => s.Contains("write") ? 1 : s.Contains("mixed") ? 2 : 0).ThenBy(s => s).ToList();
        var confirmed = runs.Any(r => r.Capacity is not null);
        var header = new[] { "architecture" }.Concat(scenarios.Select(s => confirmed ? $"{s}: capacity @ SLO [interval] (ramp: rps @ SLO, p99)" : $"{s}: rps @ SLO · p99 ms")).ToArray();
        var rows = runs.Select(r => r.Storage).Distinct().Select(storage =>
            new[] { storage }.Concat(scenarios.Select(s => runs.FirstOrDefault(r => r.Storage == storage && r.Scenario == s) is { } run
                ? (!confirmed ? $"{Sustained(run)} · {Ms(run.QuantilesMs["p99"])}"
                    : run.Capacity is null ? $"— (ramp: {Sustained(run)}, p99 {Ms(run.QuantilesMs["p99"])} ms)"
                    : $"{Confirmed(run)[3..]} (ramp: {Sustained(run)}, p99 {Ms(run.QuantilesMs["p99"])} ms)")
                  + (run.QueueRanDry ? " ⚠ queue ran dry" : "") : "—")).ToArray()).ToList();
        return (header, rows);
    }

    /// <summary>
    /// " · N [low–high]": the cell's capacity (the median of its repetitions) with its interval (one
    /// repetition: its bracket), " unstable" when the repetitions spread; nothing without repetitions.
    /// A cell most of whose repetitions held no confirmation reads "≤ N … not established (held in k of n)".
    /// </summary>
    public static string Confirmed(RunAnalysis run) =>
        run.Capacity is not { } c ? ""
        : $" · {(c.Established ? "" : "≤ ")}{Rps(c.ConfirmedRps)}{(c.Interval is { } i && (i.Low != c.ConfirmedRps || i.High != c.ConfirmedRps) ? $" [{Rps(i.Low)}–{Rps(i.High)}]" : "")}{(c.Unstable ? " unstable" : "")}" +
          (c.Established ? "" : $" not established (held in {c.Confirmations.Count(r => r.Confirmed)} of {c.Confirmations.Count})");

    /// <summary>Key/value lines describing the machine and servers, from environment.json.</summary>
    public static List<(string Key, string Value)> Environment(JsonElement? environment)
    {
        var lines = new List<(string, string)>();
        if (environment is not { ValueKind: JsonValueKind.Object } env) return [("environment", "not recorded (no environment.json; see `lab env`)")];
        foreach (var property in env.EnumerateObject())
        {
            if (property.Value.ValueKind == JsonValueKind.Object)
                foreach (var inner in property.Value.EnumerateObject()) lines.Add(($"{property.Name}: {inner.Name}", Scalar(inner.Value)));
            else lines.Add((property.Name, Scalar(property.Value)));
        }
        return lines;
    }

    private static string Scalar(JsonElement value) => value.ValueKind == JsonValueKind.String ? value.GetString()! : value.GetRawText();

    /// <summary>What "capacity" and its interval mean; empty when no run had repetitions.</summary>
    public static string CapacityMethod(IReadOnlyList<RunAnalysis> runs) =>
        runs.FirstOrDefault(r => r.Capacity is not null)?.Capacity is not { } c ? "" :
        " \"capacity\" is the rate a repetition held at the SLO for a whole confirmation: constant-rate steps (each after an unrecorded second at its rate) find where p99 crosses the SLO, " +
        "interpolated between the highest step that held (p99 ≤ SLO, < 0.1 % errors) and the lowest that did not; each repetition starts from the same reset state and the same probe, never from another repetition's result; " +
        $"that rate is then held for {Svg.N(c.ConfirmSeconds)} s as a confirmation, and after one that fails another lower (÷ confirm_backoff, at most max_confirmations; its p99 per window and its seconds over the SLO, the stalls, are in summary.json). " +
        "A repetition none of whose confirmations held reads \"≤\" the lowest rate confirmed, never a 0 unless every step answered errors; a cell most of whose repetitions held none does not qualify in the verdict. " +
        "The cell's figure is the median of its repetitions with its interval in brackets (several: order statistics, min–max for five or fewer, with its coverage in summary.json; one: the rate held and the lowest above it that did not); " +
        "\"unstable\": the repetitions spread more than the profile's unstable_spread of the median, with the causes measured (summary.json: unstable_because). lab compare judges these intervals.";

    public static string Method(double sloMs) =>
        $"Open load model (requests leave at their scheduled time whether or not earlier ones answered; at most `instances` in flight). " +
        $"Latency counts from each request's intended send time (its place in the schedule): the runner's lateness in sending it plus Tank's interval_real " +
        $"(connect + send + wait + receive), so a generator that fell behind cannot hide the queue it met; \"actual send\" is interval_real alone, as phout.log has it " +
        $"(lateness.log beside it holds each line's lateness; a run without it counts from the actual send). \"late > SLO\" counts requests sent more than the SLO after their scheduled time; \"dropped\", requests " +
        $"planned but never sent within the run (the runner sends every planned request of an open model, however late, unless an autostop ends the run). " +
        $"\"max rps @ SLO\" is the highest rate held in at least " +
        $"{PhoutAnalyzer.SustainWindowSeconds - 1} of {PhoutAnalyzer.SustainWindowSeconds} consecutive seconds with p99 ≤ {Svg.N(sloMs)} ms and < 0.1 % errors (errors: net errors, no answer, HTTP ≥ 400; " +
        $"any other answer, 201 Created and an empty queue's 204 No Content included, is a success; " +
        $"one stray second over the SLO, which shared cores produce now and then, does not void the seconds around it; two in three do), " +
        $"seconds bucketed by response completion as Tank does. \"≥ N\" means the SLO still held at the top of the ramp: " +
        $"the architecture's limit lies beyond what was planned.";
}
