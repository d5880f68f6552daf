using System.Text.Json.Serialization;

namespace Crash.Timeline;

/// <summary>One second of a run's writes (by the second they were sent in).</summary>
/// <param name="P99Ms">The 99th percentile of their latencies (a timeout counts as its full wait); null when none was sent.</param>
public sealed record TimelineSecond(int Second, long Sent, long Acked, [property: JsonPropertyName("http_503")] long Http503, long OtherFailed, double? P99Ms);

/// <summary>
/// A run second by second: p99 and 503s, the fault window, and how the run came back from it —
/// <see cref="P99BackS"/> after the fault ended p99 was under the SLO again (for
/// <see cref="HeldSeconds"/> seconds in a row, or to the end), with <see cref="Shed503"/> writes
/// answered 503 from the fault's start until then.
/// </summary>
public sealed record RunTimeline
{
    /// <summary>Seconds in a row p99 must stay under the SLO to count as back.</summary>
    public const int HeldSeconds = 3;

    public double SloMs { get; init; }
    public double? FaultStartedS { get; init; }
    public double? FaultEndedS { get; init; }
    /// <summary>Seconds from the fault's end to the start of the first second from which p99 held under the SLO; 0 if it never left; null if it never came back.</summary>
    public double? P99BackS { get; init; }
    [JsonPropertyName("shed_503")]
    public long Shed503 { get; init; }
    public IReadOnlyList<TimelineSecond> Seconds { get; init; } = [];

    /// <summary>The timeline of <paramref name="writes"/> given when the fault started and ended.</summary>
    internal static RunTimeline Of(IReadOnlyList<WriteRecord> writes, double sloMs, double? faultStartedS, double? faultEndedS)
    {
        var seconds = writes.GroupBy(w => (int)Math.Floor(w.SentS)).OrderBy(g => g.Key).Select(g =>
        {
            var latencies = g.Select(w => (w.CompletedS - w.SentS) * 1000).Order().ToList();
            return new TimelineSecond(g.Key, g.Count(), g.Count(w => w.Class == ResponseClass.Ack), g.Count(w => w.Class == ResponseClass.Unavailable),
                g.Count(w => w.Class is not (ResponseClass.Ack or ResponseClass.Unavailable)),
                latencies.Count == 0 ? null : Math.Round(latencies[Math.Max(0, (int)Math.Ceiling(latencies.Count * 0.99) - 1)], 2));
        }).ToList();
        double? back = null;
        if (faultEndedS is { } end)
        {
            var after = seconds.Where(s => s.Second + 1 > end).ToList();
            for (var i = 0; i < after.Count && back is null; i++)
            {
                var window = after.Skip(i).Take(HeldSeconds).ToList();
                if (window.All(s => s.P99Ms <= sloMs && s.Http503 + s.OtherFailed == 0)) back = Math.Max(0, Math.Round(after[i].Second - end, 3));
            }
        }
        var shedUntil = faultEndedS is { } e && back is { } b ? e + b : double.PositiveInfinity;
        var shed = faultStartedS is { } start ? writes.Count(w => w.Class == ResponseClass.Unavailable && w.SentS >= start && w.SentS < shedUntil) : 0;
        return new RunTimeline { SloMs = sloMs, FaultStartedS = faultStartedS, FaultEndedS = faultEndedS, P99BackS = back, Shed503 = shed, Seconds = seconds };
    }
}
