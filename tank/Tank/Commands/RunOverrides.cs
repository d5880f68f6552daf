using Tank.Ammo;

namespace Tank.Commands;

/// <summary>What <c>tank run</c> takes from the command line on top of load.yaml (and records in meta.json).</summary>
public sealed record RunOverrides(
    string? Address, string? Tag, string? Storage, string? Scenario, string? Durability,
    string? LoadType, string? AmmoType, long Instances, bool Quiet, int Nodes = 0);
