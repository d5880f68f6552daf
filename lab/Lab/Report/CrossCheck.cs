using System.Globalization;
using Tank.Ammo;

namespace Lab.Report;

/// <summary>
/// One endpoint of one architecture measured by wrk and by this runner in the closed model with
/// the same connection count and duration: if both agree, the runner's numbers are not an
/// artefact of the runner.
/// </summary>
public sealed record CrossCheck(string Storage, string Scenario, string Endpoint, int Connections, double DurationSeconds,
    double WrkRps, double WrkCpuSeconds, long WrkRequests, double TankRps, double TankCpuSeconds, long TankRequests, string? WrkCommand)
{
    public const double TolerancePercent = 15;

    /// <summary>The cell's confirmed rate under paced wrk, when the run confirmed one for this endpoint.</summary>
    public RateCheck? Rate { get; init; }

    /// <summary>How far our runner's rate is from wrk's, in % of wrk's.</summary>
    public double DifferencePercent => WrkRps <= 0 ? 100 : (TankRps - WrkRps) / WrkRps * 100;

    public bool Agree => Math.Abs(DifferencePercent) <= TolerancePercent;

    public double WrkCpuUsPerRequest => WrkRequests == 0 ? 0 : WrkCpuSeconds * 1e6 / WrkRequests;

    public double TankCpuUsPerRequest => TankRequests == 0 ? 0 : TankCpuSeconds * 1e6 / TankRequests;

    /// <summary>The verdict in words, with the likely reason when the two disagree.</summary>
    public string Verdict()
    {
        var diff = DifferencePercent.ToString("+0.0;-0.0;0", CultureInfo.InvariantCulture) + " %";
        if (Agree) return $"agree ({diff}, within ±{TolerancePercent:0} %)";
        var cost = $"generator CPU per request: tank {TankCpuUsPerRequest:0.0} µs, wrk {WrkCpuUsPerRequest:0.0} µs";
        var (slower, slowerCpu, fasterCpu) = TankRps < WrkRps ? ("tank", TankCpuUsPerRequest, WrkCpuUsPerRequest) : ("wrk", WrkCpuUsPerRequest, TankCpuUsPerRequest);
        var why = slowerCpu > 1.1 * fasterCpu
            ? $"{slower} spends more CPU per request, and on cores shared with the service that CPU is taken from the service: {slower}'s rate is the lower bound"
            : slower == "tank"
                ? "tank is slower without costing more CPU: its connection handling, not the service, limited this run; distrust tank's figures for this endpoint"
                : "wrk is slower without costing more CPU per request: the likely limit is its single thread (-t1) serving every connection, not the service; not proven by these figures (rerun wrk with -t2 to confirm), so treat wrk's figure as the lower bound";
        return $"DISAGREE ({diff}, beyond ±{TolerancePercent:0} %): {why}; {cost}";
    }
}
