namespace Tank.Bench;

/// <summary>
/// How the capacity at the SLO is searched: <see cref="Steps"/> holds of <see cref="HoldSeconds"/>
/// each, bisecting between 0 and the top of the range, then a confirmation hold of
/// <see cref="ConfirmSeconds"/> at the rate found (once more 10 % lower if that fails). Each hold
/// is preceded by <see cref="WarmupSeconds"/> at its rate, unrecorded, so the previous hold's
/// backlog drains before anything is judged. With <see cref="TrustHint"/> (a repetition after the
/// first, whose hint is the rate the previous one confirmed) the hint counts as held without a
/// hold of its own, and the first hold tries at most a fifth above it.
/// </summary>
public sealed record SearchPlan(int Steps, int HoldSeconds, int ConfirmSeconds, double SloMs, int WarmupSeconds = 1, bool TrustHint = false);
