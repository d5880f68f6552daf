using System.Globalization;
using Tank.Ammo;

namespace Lab.Report;

/// <summary>
/// A confirmed capacity checked by a second generator: wrk, paced by tank/wrk/paced.lua at the
/// cell's confirmed rate for as long as a confirmation, on the same endpoint and ids. It agrees
/// when wrk kept the rate within <see cref="TolerancePercent"/> and its p99 stayed within the SLO.
/// wrk measures from the actual send and its pacing is coarser (whole milliseconds), so it is the
/// stricter judge of a rate only where it keeps up; a shortfall with a low p99 points at wrk.
/// </summary>
public sealed record RateCheck(string Storage, string Scenario, long ConfirmedRps, double WrkRps, double WrkP99Ms, double SloMs, int Seconds, string? Command)
{
    public const double TolerancePercent = 15;

    public double DifferencePercent => ConfirmedRps <= 0 ? 100 : (WrkRps - ConfirmedRps) / ConfirmedRps * 100;

    public bool Agree => Math.Abs(DifferencePercent) <= TolerancePercent && WrkP99Ms <= SloMs;

    public string Verdict()
    {
        var diff = DifferencePercent.ToString("+0.0;-0.0;0", CultureInfo.InvariantCulture) + " %";
        var slo = SloMs.ToString("0.##", CultureInfo.InvariantCulture);
        if (Agree) return $"agree (rate {diff}, p99 within {slo} ms)";
        if (Math.Abs(DifferencePercent) > TolerancePercent)
            return $"DISAGREE: wrk sent {diff} against the confirmed rate" + (WrkP99Ms <= SloMs ? " with p99 within the SLO: wrk's pacing, not the service, fell short" : "");
        return $"DISAGREE: at the confirmed rate wrk saw p99 {WrkP99Ms.ToString("0.0", CultureInfo.InvariantCulture)} ms, over the {slo} ms SLO";
    }
}
