using System.Text.Json.Serialization;

namespace Crash.Timeline;

/// <summary>One second of a run's writes (by the second they were due in; latency from that time, so a late sender does not hide it).</summary>
/// <param name="P99Ms">The 99th percentile of their latencies (a timeout counts as its full wait); null when none was sent.</param>
public sealed record TimelineSecond(int Second, long Sent, long Acked, [property: JsonPropertyName("http_503")] long Http503, long OtherFailed, double? P99Ms);

/// <summary>
/// A run second by second: p99 and 503s, the fault window, and how the run came back from it —
/// <see cref="P99BackS"/> after the fault ended p99 was under the SLO again (for
/// <see cref="HeldSeconds"/> whole seconds in a row within the run: fewer at its end are not a
/// recovery, they are "not within the run"), with <see cref="Shed503"/> writes
/// answered 503 from the fault's start until then. On a machine where the load alone already
/// keeps p99 over the SLO, that never happens; so the run's own level before the fault is kept
/// too (<see cref="BaselineP99Ms"/>, the p99 of every write due before it) and
/// <see cref="BaselineBackS"/> measures the return to the higher of the two.
/// </summary>
public sealed record RunTimeline
{
    /// <summary>Seconds in a row p99 must stay under the SLO to count as back.</summary>
    public const int HeldSeconds = 3;

    public double SloMs { get; init; }
    public double? FaultStartedS { get; init; }
    public double? FaultEndedS { get; init; }
    /// <summary>Seconds from the fault's end to the start of the first second from which p99 held under the SLO; 0 if it never left; null if it did not come back within the run.</summary>
    public double? P99BackS { get; init; }
    [JsonPropertyName("shed_503")]
    public long Shed503 { get; init; }
    /// <summary>The p99 of the writes due before the fault started: the level the run had without it; null without a fault or writes before it.</summary>
    [JsonPropertyName("baseline_p99_ms")]
    public double? BaselineP99Ms { get; init; }
    /// <summary>Like <see cref="P99BackS"/>, against the higher of the SLO and <see cref="BaselineP99Ms"/>: back to where the run was before the fault.</summary>
    [JsonPropertyName("baseline_back_s")]
    public double? BaselineBackS { get; init; }
    public IReadOnlyList<TimelineSecond> Seconds { get; init; } = [];

    /// <summary>The timeline of <paramref name="writes"/> given when the fault started and ended, for a run whose writes were due over <paramref name="runSeconds"/>.</summary>
    internal static RunTimeline Of(IReadOnlyList<WriteRecord> writes, double sloMs, double? faultStartedS, double? faultEndedS, double runSeconds)
    {
        var seconds = writes.GroupBy(w => (int)Math.Floor(w.DueS)).OrderBy(g => g.Key).Select(g =>
        {
            var latencies = g.Select(w => (w.CompletedS - w.DueS) * 1000).Order().ToList();
            return new TimelineSecond(g.Key, g.Count(), g.Count(w => w.Class == ResponseClass.Ack), g.Count(w => w.Class == ResponseClass.Unavailable),
                g.Count(w => w.Class is not (ResponseClass.Ack or ResponseClass.Unavailable)),
                latencies.Count == 0 ? null : P99Ms(latencies));
        }).ToList();
        // Only seconds wholly inside the run can hold: a last second cut short by the run's end has fewer writes, not a full second of them.
        var whole = seconds.Where(s => s.Second + 1 <= runSeconds + 1e-9).ToList();
        var back = BackUnder(whole, sloMs, faultEndedS);
        var before = faultStartedS is { } f ? writes.Where(w => w.DueS < f).Select(w => (w.CompletedS - w.DueS) * 1000).Order().ToList() : [];
        double? baseline = before.Count == 0 ? null : P99Ms(before);
        var baselineBack = baseline is { } level && level > sloMs ? BackUnder(whole, level, faultEndedS) : back;
        var shedUntil = faultEndedS is { } e && back is { } b ? e + b : double.PositiveInfinity;
        var shed = faultStartedS is { } start ? writes.Count(w => w.Class == ResponseClass.Unavailable && w.DueS >= start && w.DueS < shedUntil) : 0;
        return new RunTimeline
        {
            SloMs = sloMs, FaultStartedS = faultStartedS, FaultEndedS = faultEndedS, P99BackS = back, Shed503 = shed, Seconds = seconds,
            BaselineP99Ms = baseline, BaselineBackS = baselineBack,
        };
    }

    /// <summary>The 99th percentile of latencies sorted ascending (not empty), rounded to hundredths of a ms as the timeline reports it.</summary>
    internal static double P99Ms(IReadOnlyList<double> sorted) => Math.Round(sorted[Math.Max(0, (int)Math.Ceiling(sorted.Count * 0.99) - 1)], 2);

    /// <summary>
    /// Seconds from the fault's end to the first of <see cref="HeldSeconds"/> consecutive seconds with
    /// p99 ≤ <paramref name="limitMs"/> and no failed write; null when the run ends (or a second has no
    /// writes at all) before that many were seen: a shorter stretch at the end is not a recovery.
    /// </summary>
    private static double? BackUnder(IReadOnlyList<TimelineSecond> seconds, double limitMs, double? faultEndedS)
    {
        if (faultEndedS is not { } end) return null;
        var after = seconds.Where(s => s.Second + 1 > end).ToList();
        for (var i = 0; i + HeldSeconds <= after.Count; i++)
        {
            var window = after.Skip(i).Take(HeldSeconds).ToList();
            var consecutive = window[^1].Second - window[0].Second == HeldSeconds - 1;
            if (consecutive && window.All(s => s.P99Ms <= limitMs && s.Http503 + s.OtherFailed == 0)) return Math.Max(0, Math.Round(after[i].Second - end, 3));
        }
        return null;
    }
}
