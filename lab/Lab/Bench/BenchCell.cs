using Tank.Ammo;
using Tank.Ammo.Workloads;

namespace Lab.Bench;

/// <summary>
/// One measured cell of the matrix: a scenario on an architecture, on one service node
/// (<see cref="Nodes"/> 0) or through node 0 of a sharded cluster of that many nodes; optionally
/// with a YCSB workload on the scenario's API and a key distribution other than uniform.
/// </summary>
public sealed record BenchCell(Scenario Scenario, string Storage, int Nodes = 0)
{
    /// <summary>A YCSB workload (ycsb-a … ycsb-f) replacing the scenario's own mix on its API; null: the scenario's.</summary>
    public string? Workload { get; init; }

    /// <summary>How keys are drawn (zipfian, latest, hotspot); null: the generator's default.</summary>
    public string? Distribution { get; init; }

    /// <summary>The cell's name in the report: the scenario, or its API and the workload, and the distribution when not uniform.</summary>
    public string Name =>
        (Workload is { } w ? $"{Scenario.Name()[..Scenario.Name().IndexOf('-')]}-{w}" : Scenario.Name()) + (Distribution is { } d and not "uniform" ? $"-{d}" : "");

    /// <summary>Where its results go under the run directory: runs/&lt;storage&gt;[-xN]/&lt;name&gt;.</summary>
    public string RelativeDir => Path.Combine("runs", Nodes > 1 ? $"{Storage}-x{Nodes}" : Storage, Name);

    public string Label => Nodes > 1 ? $"{Name} on {Storage} (node 0 of {Nodes})" : $"{Name} on {Storage}";
}
