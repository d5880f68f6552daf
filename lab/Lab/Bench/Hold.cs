namespace Lab.Bench;

/// <summary>
/// What one constant-rate hold <c>const(R, Ns)</c> did: the rate asked, the requests planned and
/// answered, p99 over the hold from each request's intended send time (lateness + interval_real),
/// the errors and the requests sent later than the SLO after their scheduled time (kept, not
/// judged: a late send already counts in the p99 from the intended send). It holds the SLO when
/// p99 ≤ SLO, errors stay under the profile's maximum and at least 95 % of the planned requests
/// were answered.
/// </summary>
public sealed record Hold(long Rate, double Seconds, long Planned, long Responses, long Errors, double P99Ms, long Late = 0)
{
    public double ErrorRate => Responses == 0 ? 1 : (double)Errors / Responses;

    public bool Held(double sloMs, double maxErrorRate) => Responses > 0 && P99Ms <= sloMs && ErrorRate < maxErrorRate && Responses >= 0.95 * Planned;

    /// <summary>p99 from the actual send (interval_real alone), ms.</summary>
    public double ActualP99Ms { get; init; }
    /// <summary>CPU µs per answer of each process accounted (the generator as "tank"), this hold only.</summary>
    public IReadOnlyDictionary<string, double> CpuUsPerRequest { get; init; } = new Dictionary<string, double>();
    /// <summary>CPU of processes outside the run during the hold, in cores; null when not read.</summary>
    public double? ForeignCores { get; init; }
    /// <summary>p99 of each window of the hold (confirmations), ms.</summary>
    public IReadOnlyList<double> WindowP99Ms { get; init; } = [];
    /// <summary>Seconds of the hold whose p99 was over the SLO, and the longest run of them.</summary>
    public int StallSeconds { get; init; }
    public int LongestStallSeconds { get; init; }
    /// <summary>Times this hold was run again before this one counted (disturbed by other processes, or the generator behind).</summary>
    public int Reruns { get; init; }
    /// <summary>Why the last run before this one was void; null when none was.</summary>
    public string? RerunBecause { get; init; }
    /// <summary>The service's garbage-collection pauses during the hold (with its warm-up second), ms; null when not read.</summary>
    public double? ServiceGcPauseMs { get; init; }
    /// <summary>Seconds rested before the hold because the one before it failed (its backlog drained).</summary>
    public double RestedSeconds { get; init; }
    /// <summary>Times the cell's Redis data nodes forked during the hold (a snapshot, an AOF rewrite); null when not read or not Redis.</summary>
    public long? ServerForks { get; init; }
    /// <summary>The longest latest fork among the nodes that forked: how long it blocked Redis, ms.</summary>
    public double? LongestForkMs { get; init; }
    /// <summary>The generator itself fell behind in this run too (no reruns left): its p99 says more about the generator than the server.</summary>
    public bool GeneratorBehind { get; init; }
}
