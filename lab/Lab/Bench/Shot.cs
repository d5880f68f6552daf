using Tank.Ammo;
using Tank.Cpu;

namespace Lab.Bench;

/// <summary>
/// One in-process <c>tank run</c>: a Tank config with the bench's overrides, as script/bench passed
/// them on the command line. A null <see cref="Schedule"/> or <see cref="Instances"/> keeps the config's.
/// </summary>
public sealed record Shot
{
    public required string Config { get; init; }
    public required string AmmoFile { get; init; }
    /// <summary>The ammo already read from <see cref="AmmoFile"/>, to share between a probe and its run.</summary>
    public IReadOnlyList<AmmoRequest>? Ammo { get; init; }
    public required string Address { get; init; }
    public required string OutDir { get; init; }
    public string? Schedule { get; init; }
    /// <summary>Closed model with this many instances; null: the config's load type.</summary>
    public int? Instances { get; init; }
    public string? Warmup { get; init; }
    public string? Storage { get; init; }
    public string? Scenario { get; init; }
    public string? Durability { get; init; }
    public int Nodes { get; init; }
    public IReadOnlyList<CpuTarget> Cpu { get; init; } = [];
    /// <summary>Shown on the live status line; null: no status (short preparatory runs).</summary>
    public string? Label { get; init; }
    /// <summary>Ends the measured run (not its warm-up) early once its outcome is decided (<see cref="Tank.Runner.RunOptions.DecidedWhen"/>).</summary>
    public Func<Tank.Runner.RunMonitor, string?>? DecidedWhen { get; init; }
}
