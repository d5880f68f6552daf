namespace Lab.Compare;

/// <summary>The figures compare judges per cell.</summary>
public enum Metric { Capacity, P99, CpuPerRequest }

public static class Metrics
{
    public static string Name(this Metric metric) => metric switch
    {
        Metric.Capacity => "capacity (rps @ SLO)",
        Metric.P99 => "p99 ms",
        _ => "CPU µs/request",
    };

    /// <summary>More capacity is better; a higher p99 or CPU per request is worse.</summary>
    public static bool HigherIsBetter(this Metric metric) => metric == Metric.Capacity;

    public static Figure? Of(this Metric metric, CellFigures cell) => metric switch
    {
        Metric.Capacity => cell.Capacity,
        Metric.P99 => cell.P99Ms,
        _ => cell.CpuUsPerRequest,
    };
}
