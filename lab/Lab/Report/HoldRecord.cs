namespace Lab.Report;

/// <summary>
/// One constant-rate hold of a repetition (capacity.json): the rate, its length, p99 from the
/// intended send (and from the actual send), errors, whether it held the SLO, whether it was the
/// confirmation, its repetition, the requests sent later than the SLO, the CPU µs per answer of
/// every process accounted during it (the generator as "tank"), the CPU of processes outside the
/// run (cores), how often it was run again and why, a confirmation's p99 per window, and how long
/// the service's garbage collector paused it.
/// </summary>
public sealed record HoldRecord(long Rate, double Seconds, double P99Ms, double ErrorRate, long Responses, bool Held, bool Confirmation, int Repeat = 1, long Late = 0)
{
    public double? ActualP99Ms { get; init; }
    public IReadOnlyDictionary<string, double> CpuUsPerRequest { get; init; } = new Dictionary<string, double>();
    public double? ForeignCores { get; init; }
    public int Reruns { get; init; }
    public string? RerunBecause { get; init; }
    public bool GeneratorBehind { get; init; }
    public IReadOnlyList<double> WindowP99Ms { get; init; } = [];
    /// <summary>The service's garbage-collection pauses during the hold, ms; null when not read.</summary>
    public double? ServiceGcPauseMs { get; init; }
    /// <summary>Seconds rested before the hold because the one before it failed.</summary>
    public double RestedSeconds { get; init; }

    /// <summary>Times the cell's Redis data nodes forked during the hold (a snapshot, an AOF rewrite); null when not read or not Redis.</summary>
    public long? ServerForks { get; init; }
    /// <summary>The longest latest fork among the nodes that forked: how long it blocked Redis, ms.</summary>
    public double? LongestForkMs { get; init; }
    /// <summary>The generator's CPU µs per answer in this hold; null when not accounted.</summary>
    public double? GeneratorUsPerRequest => CpuUsPerRequest.TryGetValue("tank", out var us) ? us : null;
}
