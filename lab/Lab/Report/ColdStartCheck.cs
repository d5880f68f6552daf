namespace Lab.Report;

/// <summary>
/// Flags a run measured cold: the p99 of its first <see cref="WindowSeconds"/> seconds is more than
/// <see cref="Factor"/>× and more than <see cref="MarginMs"/> ms above the run's typical p99 at
/// comparable rates. "Comparable" is every later second at no more than twice the first seconds'
/// busiest rate, plus the lower half of the later seconds by rate: a ramp's first seconds are
/// slower than anything later, and latency only grows with rate in a warm system, so the seconds
/// at the ramp's top (overload) never count and a cold start cannot hide behind them. Seconds
/// after the schedule ended (draining) and the last, partial second are left out.
/// </summary>
public static class ColdStartCheck
{
    public const int WindowSeconds = 3;
    public const double Factor = 3;
    public const double MarginMs = 5;

    /// <param name="firstWindowP99Ms">p99 over all responses of the first seconds together (not a per-second figure).</param>
    /// <param name="plannedSeconds">the schedule's length in seconds; 0 when unknown (closed model).</param>
    public static ColdStart? Check(IReadOnlyList<SecondPoint> seconds, double firstWindowP99Ms, int plannedSeconds)
    {
        var first = seconds.Where(s => s.Second >= 0 && s.Second < WindowSeconds && s.Responses > 0).ToList();
        var lastSecond = seconds.Count == 0 ? 0 : seconds.Max(s => s.Second);
        var later = seconds.Where(s => s.Second >= WindowSeconds && s.Second < lastSecond && s.Responses > 0
                                       && (plannedSeconds <= 0 || s.Second < plannedSeconds)).ToList();
        if (first.Count == 0 || later.Count < WindowSeconds) return null;
        var rateBound = Math.Max(2.0 * first.Max(s => s.Responses), Median(later.Select(s => (double)s.Responses)));
        var typical = Median(later.Where(s => s.Responses <= rateBound).Select(s => s.P99Ms));
        return firstWindowP99Ms > Factor * typical && firstWindowP99Ms - typical > MarginMs
            ? new ColdStart(firstWindowP99Ms, typical, WindowSeconds)
            : null;
    }

    private static double Median(IEnumerable<double> values) => Harness.Statistics.Median(values);
}
