namespace Lab.Bench;

/// <summary>
/// The capacity at the SLO by search, then confirmation. The ramp only suggests where the knee
/// is (its seconds pass by, each too short to show a queue building up); here each candidate rate
/// is held constant, and counts as held with the plan's headroom (p99 ≤ <see cref="SearchPlan.SearchSloMs"/>): the first at the ramp's estimate (when there is one), then bisection between
/// the highest rate that held and the lowest that did not, starting from 0 and the range's top.
/// A failure that contradicts what is known (at or below a rate that already held, the ramp's
/// estimate included: it held that rate for seconds) or only just missed
/// (<see cref="Hold.Borderline"/>) is held once more before it lowers the top: on shared cores one
/// noisy second must not cap the search far below the knee. The best rate is then held for
/// longer; if that fails, once more 20 % lower (<see cref="SearchPlan.ConfirmFactors"/>): a 15-s
/// hold meets the stalls a 3-s one misses (a checkpoint, a snapshot's fork), and a repetition that
/// confirms nothing reads as a capacity of 0. A later repetition (<see cref="SearchPlan.TrustHint"/>)
/// starts from the best rate an earlier one confirmed and holds one rate above it. The measure function runs one hold; the search is
/// pure logic (tested against a fake one).
/// </summary>
public static class CapacitySearch
{
    public static SearchResult Run(SearchPlan plan, long top, long? hint, Func<long, int, Hold> measure)
    {
        var holds = new List<Hold>();
        long good = 0, bad = Math.Max(1, top);
        var failed = false;
        // A ramp whose SLO held only in its first seconds suggests nothing worth a hold.
        var usable = hint is { } h && h >= bad / 10 && h < bad;
        var known = usable ? hint!.Value : 0L;
        void Try(long rate)
        {
            var hold = measure(rate, plan.HoldSeconds);
            holds.Add(hold);
            // A later repetition's one hold above a rate just confirmed is not retried: the
            // confirmation that follows (and its lower step) is the judgement that counts.
            if (!plan.TrustHint && !hold.Held(plan.SearchSloMs) && (rate <= Math.Max(good, known) || hold.Borderline(plan.SloMs)))
            {
                hold = measure(rate, plan.HoldSeconds);
                holds.Add(hold);
            }
            if (hold.Held(plan.SearchSloMs)) good = Math.Max(good, rate);
            else (bad, failed) = (Math.Min(bad, rate), true);
        }

        var steps = plan.Steps;
        if (usable && plan.TrustHint)
        {
            // A rate confirmed for the whole confirmation a moment ago: look a step above it, not halfway to the top.
            good = known;
            if (steps-- > 0) Try(Math.Min((good + bad) / 2, good + good / 5));
        }
        else if (usable && steps > 0)
        {
            Try(known);
            steps--;
        }
        for (var i = 0; i < steps && bad - good > Math.Max(1, bad / 100); i++)
            Try((good + bad) / 2);

        var confirmations = new List<Hold>();
        foreach (var rate in SearchPlan.ConfirmFactors.Select(f => (long)(good * f)).Where(r => r > 0).Distinct())
        {
            var hold = measure(rate, plan.ConfirmSeconds);
            confirmations.Add(hold);
            if (hold.Held(plan.SloMs)) return new SearchResult(holds, confirmations, rate, hold) { NeverFailed = !failed && confirmations.Count == 1 };
        }
        return new SearchResult(holds, confirmations, 0, confirmations.LastOrDefault());
    }
}
