using Tank.Ammo;
using Tank.Runner;

namespace Tank.Bench;

/// <summary>What measuring a cell found: the probe's capacity and the measured run, and its ammo for the steps after it.</summary>
public sealed record CellOutcome(long Capacity, RunResult Result, string AmmoFile, IReadOnlyList<AmmoRequest> Ammo);
