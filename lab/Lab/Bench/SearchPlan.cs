namespace Lab.Bench;

/// <summary>
/// How the capacity at the SLO is searched: <see cref="Steps"/> holds of <see cref="HoldSeconds"/>
/// each, bisecting between 0 and the top of the range, then a confirmation hold of
/// <see cref="ConfirmSeconds"/> at the rate found, then once more at the lower step of
/// <see cref="ConfirmFactors"/> if that fails (a step of 20 %: the stalls a 15-s hold meets and a
/// 3-s one misses, a checkpoint or a snapshot's fork, seldom pass at 10 % less). Each hold
/// is preceded by <see cref="WarmupSeconds"/> at its rate, unrecorded, so the previous hold's
/// backlog drains before anything is judged. With <see cref="TrustHint"/> (a repetition after the
/// first, whose hint is the best rate an earlier one confirmed) the hint counts as held without a
/// hold of its own, and the first hold tries at most a fifth above it. A search hold counts as
/// held only with <see cref="Headroom"/>: p99 ≤ Headroom × SLO (<see cref="SearchSloMs"/>); the
/// confirmation is judged at the SLO itself.
/// </summary>
public sealed record SearchPlan(int Steps, int HoldSeconds, int ConfirmSeconds, double SloMs, int WarmupSeconds = 1, bool TrustHint = false, double Headroom = 1.0)
{
    /// <summary>
    /// The bench's headroom: a 3-s hold just under the SLO says little about a 15-s confirmation (most
    /// confirmations after holds at 8–10 ms of a 10-ms SLO failed, most after holds at ≤ 5 ms held),
    /// and each failed confirmation costs up to 16 s before the one 20 % lower. Not half the SLO: a
    /// store whose p99 floor sits above half the SLO (PostgreSQL's batched queue takes) would then hold
    /// no search hold at any rate. The measurements behind it are in docs/BENCHMARKS.md's decisions.
    /// </summary>
    public const double BenchHeadroom = 0.8;

    /// <summary>The p99 a search hold must stay under to count as held.</summary>
    public double SearchSloMs => SloMs * Headroom;

    /// <summary>The p99 a hold is judged against: the SLO for a confirmation, <see cref="SearchSloMs"/> for a search hold.</summary>
    public double JudgedAtMs(bool confirmation) => confirmation ? SloMs : SearchSloMs;

    /// <summary>The confirmation's rates as fractions of the rate found: the first that holds is confirmed.</summary>
    public static IReadOnlyList<double> ConfirmFactors { get; } = [1.0, 0.8];
}
