namespace Crash.Timeline;

/// <summary>
/// Ends a run's writes once it has shown what its extra length was for. A matrix run is extended past --seconds
/// so that the slowest restart its budget allows still leaves p99 time to come back under the SLO and hold there
/// (<see cref="RunLengths.RunLength"/>); most restarts are much faster than their budget. So the writes stop at
/// the first whole second that is at least --seconds as asked and <see cref="MarginSeconds"/> after p99
/// held under the SLO for <see cref="RunTimeline.HeldSeconds"/> whole seconds after the fault ended, every write
/// of them acknowledged — the timeline's own rule (<see cref="RunTimeline.P99BackS"/>), seen while the run goes
/// on. Until then the run goes on to its planned length, so a slow return is measured as before.
/// </summary>
/// <param name="notBeforeS">The run never ends before this (--seconds as asked).</param>
/// <param name="faultEndedS">When the fault ended (seconds since the start), null while it runs.</param>
internal sealed class EarlyEnd(double notBeforeS, double sloMs, Func<double?> faultEndedS)
{
    /// <summary>Seconds of writes after the held ones: the last held second's late answers, and a relapse right after it, stay in the run.</summary>
    public const double MarginSeconds = 2;

    private readonly Lock _lock = new();
    private readonly Dictionary<int, Second> _seconds = [];

    /// <summary>The second (by due time) from which p99 held, once seen; null before.</summary>
    public int? HeldFromSecond { get; private set; }

    /// <summary>A write due in <paramref name="second"/> was sent.</summary>
    public void Sent(int second)
    {
        lock (_lock) Tally(second).Sent++;
    }

    /// <summary>A write due in <paramref name="second"/> ended after <paramref name="latencyMs"/> (from when it was due), acknowledged or not.</summary>
    public void Completed(int second, double latencyMs, bool acked)
    {
        lock (_lock)
        {
            var tally = Tally(second);
            tally.Latencies.Add(latencyMs);
            if (!acked) tally.Failed++;
        }
    }

    /// <summary>Whether the writes due from <paramref name="second"/> on are left unsent: the run ends there.</summary>
    public bool EndsAt(int second)
    {
        if (second < notBeforeS || faultEndedS() is not { } ended) return false;
        HeldFromSecond ??= HeldFrom(ended, second);
        return HeldFromSecond is { } from && second >= from + RunTimeline.HeldSeconds + MarginSeconds;
    }

    /// <summary>
    /// The first second s (wholly or partly after <paramref name="endedS"/>) such that s and the
    /// <see cref="RunTimeline.HeldSeconds"/> − 1 after it, all before <paramref name="beforeSecond"/>, had writes,
    /// every one of them answered and acknowledged, with p99 ≤ the SLO; null if there is none yet.
    /// </summary>
    internal int? HeldFrom(double endedS, int beforeSecond)
    {
        lock (_lock)
        {
            // The timeline's rule: a second counts after the fault when it ends after the fault's end.
            for (var s = (int)Math.Floor(endedS); s + RunTimeline.HeldSeconds <= beforeSecond; s++)
            {
                if (s + 1 <= endedS) continue;
                var held = true;
                for (var k = s; k < s + RunTimeline.HeldSeconds && held; k++) held = Holds(k);
                if (held) return s;
            }
            return null;
        }
    }

    private bool Holds(int second)
    {
        if (!_seconds.TryGetValue(second, out var tally) || tally.Sent == 0) return false;
        if (tally.Latencies.Count < tally.Sent || tally.Failed > 0) return false;
        // The timeline's own p99, so that the run ends on the figure its result reports.
        return RunTimeline.P99Ms(tally.Latencies.Order().ToList()) <= sloMs;
    }

    private Second Tally(int second)
    {
        if (!_seconds.TryGetValue(second, out var tally)) _seconds[second] = tally = new Second();
        return tally;
    }

    private sealed class Second
    {
        public long Sent;
        public long Failed;
        public List<double> Latencies { get; } = [];
    }
}
