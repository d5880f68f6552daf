using Tank.Ammo;
using Tank.Cpu;
using Lab.Metrics;
using Tank.Runner;

namespace Lab.Report;

/// <summary>Everything the report says about one architecture × scenario run.</summary>
public sealed record RunAnalysis
{
    public required string Storage { get; init; }
    public required string Scenario { get; init; }
    public string? Schedule { get; init; }
    public string? Durability { get; init; }
    public required long Requests { get; init; }
    public required double DurationSeconds { get; init; }
    public required double AchievedRps { get; init; }
    public required double MeanMs { get; init; }
    /// <summary>The headline quantiles: from the intended send time when lateness.log was there (<see cref="FromIntendedSend"/>), else interval_real.</summary>
    public required IReadOnlyDictionary<string, double> QuantilesMs { get; init; }
    /// <summary>The same quantiles of Tank's interval_real alone (from the actual send).</summary>
    public IReadOnlyDictionary<string, double> ActualQuantilesMs { get; init; } = new Dictionary<string, double>();
    /// <summary>Latencies (quantiles, seconds, spectrum) count from each request's scheduled time: lateness + interval_real.</summary>
    public bool FromIntendedSend { get; init; }
    /// <summary>Requests sent later than the SLO after their scheduled time; null without lateness.log.</summary>
    public long? LateShots { get; init; }
    /// <summary>Requests planned but never sent within the run (an autostop or the end of a closed run); null without meta.json's counts.</summary>
    public long? DroppedShots { get; init; }
    public required double MaxMs { get; init; }
    public required long Errors { get; init; }
    public required double ErrorRate { get; init; }
    public required IReadOnlyDictionary<int, long> HttpCodes { get; init; }
    public required IReadOnlyDictionary<int, long> NetCodes { get; init; }
    /// <summary>Highest rate held in at least 2 of 3 consecutive seconds with p99 ≤ SLO and errors below 0.1 %; 0 if never.</summary>
    public required double MaxSustainedRps { get; init; }
    public required IReadOnlyList<SecondPoint> Seconds { get; init; }
    /// <summary>p99 per window of the planned seconds, when asked for (a bench confirmation's); empty otherwise.</summary>
    public IReadOnlyList<double> WindowP99Ms { get; init; } = [];
    /// <summary>The schedule's highest planned rate (0 when unknown, e.g. instances mode).</summary>
    public double PeakPlannedRps { get; init; }
    /// <summary>
    /// The SLO still held at the top of the ramp: the knee lies beyond what was planned, so
    /// <see cref="MaxSustainedRps"/> is a lower bound, not the architecture's limit.
    /// </summary>
    public bool SloHeldAtPeak => PeakPlannedRps > 0 && MaxSustainedRps >= 0.98 * PeakPlannedRps;
    public long SendLatenessP99Us { get; init; }
    public int ExitCode { get; init; }
    public string? Autostop { get; init; }

    public string LoadType { get; init; } = "rps";
    public string? WarmupSchedule { get; init; }
    /// <summary>CPU seconds per process over the measured part, from meta.json; empty when not recorded.</summary>
    public IReadOnlyList<CpuUsage> Cpu { get; init; } = [];
    public double CpuWallSeconds { get; init; }
    public int Cores { get; init; }
    /// <summary>When the measured run started (UTC): from meta.json, else its first shot.</summary>
    public DateTimeOffset StartedAt { get; init; }
    /// <summary>Set when the first seconds were far slower than the rest: the run was measured cold.</summary>
    public ColdStart? ColdStart { get; init; }

    /// <summary>A queue run's depth at its start and end (queue.json); null for other runs or when not recorded.</summary>
    public QueueDepth? Queue { get; init; }

    /// <summary>
    /// Every latency of the run (the one <see cref="QuantilesMs"/>, <see cref="MeanMs"/> and <see cref="MaxMs"/> come from:
    /// from the intended send when <see cref="FromIntendedSend"/>, else interval_real), written as the run's latency.hgrm;
    /// null when not analysed from phout.
    /// </summary>
    public Tank.Stats.LatencyHistogram? Spectrum { get; init; }

    /// <summary>Per phout tag when the run had more than one (a --workload's read, update, insert, rmw-read, rmw-update); empty otherwise.</summary>
    public IReadOnlyList<OperationStats> Operations { get; init; } = [];
    /// <summary>The capacity search, its confirmation and the repeats (capacity.json); null when the run had none.</summary>
    public CapacityFile? Capacity { get; init; }

    /// <summary>The service's own measurements of the run (its /metrics scraped before and after); null when not read.</summary>
    public ServerView? Server { get; init; }

    /// <summary>
    /// A queue-read run whose queue was empty at the end: from the moment it emptied its reads were
    /// answered 204 at once, so its latencies and rate stop measuring reads. (A queue-mixed run
    /// writes as much as it reads and usually ends near 0, which is what it is meant to do.)
    /// </summary>
    public bool QueueRanDry => Scenario == Tank.Ammo.Scenario.QueueRead.Name() && Queue?.RanDry == true;

    /// <summary>Answers 204 No Content: for a queue read, the queue was empty.</summary>
    public long NoContentAnswers => HttpCodes.GetValueOrDefault(204);

    /// <summary>CPU microseconds one request cost this process.</summary>
    public double CpuUsPerRequest(CpuUsage usage) => Requests == 0 ? 0 : usage.Seconds * 1e6 / Requests;

    /// <summary>Share of all the machine's cores this process used while measured, in %.</summary>
    public double CpuPercentOfCores(CpuUsage usage) => CpuWallSeconds <= 0 || Cores <= 0 ? 0 : usage.Seconds / (CpuWallSeconds * Cores) * 100;

    /// <summary>The run's chart file name: a cluster row's "postgres ×3" becomes "postgres-x3", so links need no escaping.</summary>
    public string Id => $"{Storage}-{Scenario}".Replace(" ×", "-x", StringComparison.Ordinal).Replace(' ', '-');
}
