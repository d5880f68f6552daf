namespace Lab.Bench;

/// <summary>
/// How one repetition finds a cell's capacity at the SLO (<see cref="CapacityCurve"/>): constant-rate
/// steps of <see cref="StepSeconds"/> from <see cref="Start"/> × the probe's capacity, each
/// <see cref="Factor"/> × the last while p99 holds (down by it while it does not), at most
/// <see cref="MaxSteps"/> with one between the last step that held and the first that did not, a
/// step that failed by latency measured again up to <see cref="StepRetries"/> times;
/// then a confirmation of <see cref="ConfirmSeconds"/> at the rate found, and after one that
/// fails another at its rate ÷ <see cref="ConfirmBackoff"/>, up to <see cref="MaxConfirmations"/>. A step or a
/// confirmation holds with p99 ≤ <see cref="SloMs"/> from the intended send, errors under
/// <see cref="MaxErrorRate"/> and at least 95 % of its planned requests answered.
/// </summary>
public sealed record CurvePlan(double SloMs, double Start, double Factor, int MaxSteps, int StepSeconds, int ConfirmSeconds, double MaxErrorRate, int MaxConfirmations = 1, double ConfirmBackoff = 1.15, int StepRetries = 0)
{
    public bool Held(Hold hold) => hold.Held(SloMs, MaxErrorRate);
}
