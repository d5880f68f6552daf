using Tank.Ammo;

namespace Lab.Verdicts;

/// <summary>
/// What an architecture must do to qualify: hold <see cref="Rate"/> requests/s with p99 ≤ <see cref="SloMs"/>, in <see cref="Scenario"/>
/// (every scenario measured when null), surviving <see cref="Durability"/>; with <see cref="MaxUnavailableS"/> (failover only),
/// writes failing for at most that many seconds in every failover run.
/// </summary>
public sealed record VerdictTarget(double SloMs, double Rate, DurabilityClass Durability = DurabilityClass.None, string? Scenario = null,
    double? MaxUnavailableS = null);
