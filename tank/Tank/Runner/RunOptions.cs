using Tank.Ammo;
using Tank.Autostop;
using Tank.Cpu;
using Tank.Schedule;

namespace Tank.Runner;

/// <summary>Everything one run needs, resolved from load.yaml and the command line.</summary>
public sealed record RunOptions
{
    public required string Address { get; init; }
    public required bool ClosedModel { get; init; }
    public required LoadPlan Plan { get; init; }
    public required IReadOnlyList<AmmoRequest> Ammo { get; init; }
    public required string OutDir { get; init; }
    public int Instances { get; init; } = 1000;
    public long TimeoutMs { get; init; } = 11_000;
    public long Loop { get; init; } = -1;
    public long AmmoLimit { get; init; } = -1;
    public string? Tag { get; init; }
    public IReadOnlyList<IAutostopCriterion> Autostop { get; init; } = [];
    /// <summary>Print a progress line on stderr every second.</summary>
    public bool Progress { get; init; } = true;
    /// <summary>Called on the monitor thread as each second closes (a live status line); must be quick.</summary>
    public Action<RunProgress>? OnSecond { get; init; }
    /// <summary>Processes whose CPU is read just before the clock starts and after the last answer.</summary>
    public IReadOnlyList<CpuTarget> Cpu { get; init; } = [];
    /// <summary>
    /// Asked as each second closes, with what the run has recorded so far: a reason when the run's
    /// outcome is already decided (the bench's confirmation that can no longer hold the SLO), which
    /// ends it early like an autostop; null to go on. Must be quick.
    /// </summary>
    public Func<RunMonitor, string?>? DecidedWhen { get; init; }
}
