using System.Globalization;
using Tank.Runner;
using Harness;

namespace Lab.Bench;

/// <summary>
/// The one-line status of a run in progress: where it is, the rate, p99 so far and errors. The
/// drain after the schedule's end closes one more second; it shows as the last.
/// </summary>
public static class LiveStatus
{
    public static string Format(string label, RunProgress p) => string.Create(CultureInfo.InvariantCulture,
        $"   {label} [{Math.Min(p.Second, p.TotalSeconds)}/{p.TotalSeconds} s] {p.AnsweredLastSecond} rps (sent {p.SentLastSecond}), p99 so far {p.P99SoFarUs / 1000.0:F2} ms, errors {p.Errors} of {p.Responses}");

    /// <summary>The runner's per-second callback for a run labelled so; null off a terminal.</summary>
    public static Action<RunProgress>? For(string label) => ToolLog.Live ? p => ToolLog.Status(Format(label, p)) : null;
}
