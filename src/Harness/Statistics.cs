namespace Harness;

/// <summary>Summary statistics the tools share.</summary>
public static class Statistics
{
    /// <summary>The median (the mean of the middle two of an even count); 0 when there is none.</summary>
    public static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToList();
        if (sorted.Count == 0) return 0;
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[sorted.Count / 2 - 1] + sorted[sorted.Count / 2]) / 2;
    }
}
