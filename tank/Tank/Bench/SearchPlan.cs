namespace Tank.Bench;

/// <summary>
/// How the capacity at the SLO is searched: <see cref="Steps"/> holds of <see cref="HoldSeconds"/>
/// each, bisecting between 0 and the top of the range, then a confirmation hold of
/// <see cref="ConfirmSeconds"/> at the rate found, then once more at the lower step of
/// <see cref="ConfirmFactors"/> if that fails (a step of 20 %: the stalls a 15-s hold meets and a
/// 3-s one misses, a checkpoint or a snapshot's fork, seldom pass at 10 % less). Each hold
/// is preceded by <see cref="WarmupSeconds"/> at its rate, unrecorded, so the previous hold's
/// backlog drains before anything is judged. With <see cref="TrustHint"/> (a repetition after the
/// first, whose hint is the best rate an earlier one confirmed) the hint counts as held without a
/// hold of its own, and the first hold tries at most a fifth above it.
/// </summary>
public sealed record SearchPlan(int Steps, int HoldSeconds, int ConfirmSeconds, double SloMs, int WarmupSeconds = 1, bool TrustHint = false)
{
    /// <summary>The confirmation's rates as fractions of the rate found: the first that holds is confirmed.</summary>
    public static IReadOnlyList<double> ConfirmFactors { get; } = [1.0, 0.8];
}
