namespace Tank.Schedule;

/// <summary>A whole schedule: steps concatenated, each starting where the previous one's duration ends.</summary>
public sealed class LoadPlan(IReadOnlyList<ILoadStep> steps)
{
    public IReadOnlyList<ILoadStep> Steps { get; } = steps;

    public long DurationMs => Steps.Sum(s => s.DurationMs);

    public long Count => Steps.Sum(s => s.Count);

    /// <summary>Absolute ms offsets from the test start, in order.</summary>
    public IEnumerable<long> Timestamps()
    {
        long start = 0;
        foreach (var step in Steps)
        {
            foreach (var ts in step.Timestamps()) yield return start + ts;
            start += step.DurationMs;
        }
    }

    /// <summary>Planned rate at a moment of the test, for the planned-rps line of the charts.</summary>
    public double RateAt(double seconds)
    {
        long start = 0;
        foreach (var step in Steps)
        {
            var local = seconds - start / 1000.0;
            if (local >= 0 && local * 1000 < step.DurationMs) return step.RateAt(local);
            start += step.DurationMs;
        }
        return 0;
    }

    /// <summary>Planned requests per whole second of the test (exact, counted from the timestamps).</summary>
    public long[] CountsPerSecond()
    {
        var counts = new long[(DurationMs + 999) / 1000 + 1];
        foreach (var ts in Timestamps()) counts[ts / 1000]++;
        return counts;
    }

    public override string ToString() => string.Join(" ", Steps);
}
