namespace Lab.Bench;

/// <summary>
/// What one constant-rate hold <c>const(R, Ns)</c> did: the rate asked, the requests planned and
/// answered, p99 over the hold from each request's intended send time (lateness + interval_real),
/// the errors, and the requests sent later than the SLO after their scheduled time. It holds the
/// SLO when p99 ≤ SLO, errors stay under 0.1 %, at least 95 % of the planned requests were answered
/// and at most 0.1 % were sent late by more than the SLO (an open model that could not send on
/// time did not hold the rate: a request sent that late already missed the SLO, whatever its
/// answer; a few stragglers of a garbage collection do not void a hold). <see cref="CpuUsPerRequest"/>:
/// the CPU the service and servers spent per answer (the load generator's left out), when accounted.
/// </summary>
public sealed record Hold(long Rate, double Seconds, long Planned, long Responses, long Errors, double P99Ms, long Late = 0, double? CpuUsPerRequest = null)
{
    public const double MaxErrorRate = 0.001;

    public const double MaxLateRate = 0.001;

    public double ErrorRate => Responses == 0 ? 1 : (double)Errors / Responses;

    public bool Held(double sloMs) => Responses > 0 && P99Ms <= sloMs && ErrorRate < MaxErrorRate && Responses >= 0.95 * Planned && Late <= MaxLateRate * Planned;

    /// <summary>
    /// Failed, but only just: p99 within 1.5× the SLO, errors under 1 % and at least 90 % of the
    /// planned requests answered. A hiccup of shared cores fails a hold like this; a rate past the
    /// knee fails it by far (a queue builds and p99 climbs to the timeout).
    /// </summary>
    /// <summary>
    /// Why a hold of <paramref name="planned"/> requests can no longer hold the SLO, whatever the rest
    /// of it does, or null while it still can: more than 1 % of the planned requests already answered
    /// over the SLO from their intended send (p99 over the whole hold is then above it), errors or
    /// sends late by more than the SLO already at 0.1 % of the planned requests. Counts come from the
    /// run so far; a confirmation that fails this way is ended there (the rest would only cost time).
    /// </summary>
    public static string? DecidedFailure(long planned, long overSlo, long errors, long late)
    {
        if (planned <= 0) return null;
        if (overSlo > 0.01 * planned) return $"{overSlo} answers over the SLO, more than 1 % of the {planned} planned";
        if (errors >= MaxErrorRate * planned) return $"{errors} errors, at least 0.1 % of the {planned} planned";
        if (late > MaxLateRate * planned) return $"{late} sends late by more than the SLO, over 0.1 % of the {planned} planned";
        return null;
    }

    public bool Borderline(double sloMs) => !Held(sloMs) && Responses > 0 && P99Ms <= 1.5 * sloMs && ErrorRate < 10 * MaxErrorRate && Responses >= 0.9 * Planned;
}
