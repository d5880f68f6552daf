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
    /// The bench's headroom. In the default run of 2026-11-26 18:22 (113 confirmations), a 15-s
    /// confirmation held after 26 of 36 search holds with p99 ≤ 5 ms, 5 of 15 with 5–8 ms and 1 of 10
    /// with 8–10 ms (SLO 10 ms): a 3-s hold just under the SLO says little about 15 s, and each failed
    /// confirmation cost up to 16 s before the one 20 % lower. Not half the SLO: tried in the run of
    /// 21:27, PostgreSQL's queue reads (p99 6.6–8 ms from 4 000 to 16 000 rps, the batched takes' floor)
    /// then held no search hold at any rate, though 16 056 rps held 15 s at 7.8 ms.
    /// </summary>
    public const double BenchHeadroom = 0.8;

    /// <summary>The p99 a search hold must stay under to count as held.</summary>
    public double SearchSloMs => SloMs * Headroom;

    /// <summary>The p99 a hold is judged against: the SLO for a confirmation, <see cref="SearchSloMs"/> for a search hold.</summary>
    public double JudgedAtMs(bool confirmation) => confirmation ? SloMs : SearchSloMs;

    /// <summary>The confirmation's rates as fractions of the rate found: the first that holds is confirmed.</summary>
    public static IReadOnlyList<double> ConfirmFactors { get; } = [1.0, 0.8];
}
