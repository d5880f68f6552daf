using Tank.Cpu;
using Tank.Stats;

namespace Tank.Runner;

/// <summary>What a run did, for meta.json and the exit code.</summary>
public sealed record RunResult
{
    public required int ExitCode { get; init; }
    public string? AutostopReason { get; init; }
    /// <summary>Why <see cref="RunOptions.DecidedWhen"/> ended the run early (the exit code stays 0), if it did.</summary>
    public string? Decided { get; init; }
    public required long Planned { get; init; }
    public required long Sent { get; init; }
    public required long Responses { get; init; }
    public required long Errors { get; init; }
    public required DateTimeOffset Start { get; init; }
    public required DateTimeOffset End { get; init; }
    public required LatencyHistogram Lateness { get; init; }
    public required LatencyHistogram IntervalReal { get; init; }
    /// <summary>Latency from each request's intended send time: lateness + interval_real.</summary>
    public LatencyHistogram Intended { get; init; } = new();
    public IReadOnlyList<CpuUsage> Cpu { get; init; } = [];
    /// <summary>Wall time between the two CPU readings.</summary>
    public double CpuWallSeconds { get; init; }
}
