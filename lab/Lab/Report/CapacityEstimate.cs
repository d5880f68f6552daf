namespace Lab.Report;

/// <summary>
/// The rate a closed-model probe settled at: the median of its per-second response counts,
/// leaving out the first second (instances still starting) and the last (partial). Short probes
/// with nothing left after that fall back to the best second.
/// </summary>
public static class CapacityEstimate
{
    public static double Of(IReadOnlyList<SecondPoint> seconds)
    {
        if (seconds.Count == 0) return 0;
        var first = seconds.Min(s => s.Second);
        var last = seconds.Max(s => s.Second);
        var steady = seconds.Where(s => s.Second > first && s.Second < last).Select(s => (double)s.Responses).OrderBy(r => r).ToList();
        if (steady.Count == 0) return seconds.Max(s => s.Responses);
        return steady.Count % 2 == 1 ? steady[steady.Count / 2] : (steady[steady.Count / 2 - 1] + steady[steady.Count / 2]) / 2;
    }
}
