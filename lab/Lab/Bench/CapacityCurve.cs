namespace Lab.Bench;

/// <summary>
/// One repetition's capacity at the SLO, read off the measured p99-against-rate curve rather than
/// a pass/fail ladder: constant-rate steps bracket the rate where p99 crosses the SLO (a step that
/// held below it, one that did not above), one more step narrows the bracket, and the crossing is
/// interpolated linearly between the two (a step that failed by errors rather than latency gives no
/// slope: the crossing is then the step that held). Every repetition starts from the same
/// information, the probe's capacity, never from another repetition's result. Then confirmations
/// hold the rate for longer: at the crossing, and after one that fails at its rate ÷
/// confirm_backoff, up to max_confirmations. The repetition's figure is the rate a confirmation
/// held, so a published figure is one the stack held for a whole confirmation; when none held it is
/// the lowest rate confirmed, as an upper bound ("≤"), flagged, never 0. A cell that answered only
/// errors records 0. Pure logic: the measure function runs a hold (tested against a fake one).
/// </summary>
public static class CapacityCurve
{
    public static CurveResult Run(CurvePlan plan, long capacity, Func<long, int, bool, Hold> measure)
    {
        // One hold per rate tried, the one that decided it; a step that failed by latency is measured
        // again (step_retries) and fails only when that fails too, so one stall (a GC pause, a fork, a
        // checkpoint) inside a 3-s step does not send the search below a rate the stack holds.
        // Every attempt is still a hold of the repetition's record (the measure function keeps them).
        var steps = new List<Hold>();
        Hold Step(long rate)
        {
            var hold = measure(Math.Max(1, rate), plan.StepSeconds, false);
            for (var retry = 0; retry < plan.StepRetries && !plan.Held(hold) && hold.ErrorRate < plan.MaxErrorRate; retry++)
            {
                var again = measure(Math.Max(1, rate), plan.StepSeconds, false);
                // Failed twice: the better of the two is the curve's point (a stall inflated the other).
                hold = plan.Held(again) || again.P99Ms <= hold.P99Ms ? again : hold;
            }
            steps.Add(hold);
            return hold;
        }

        Hold? held = null, failed = null;
        var rate = (long)Math.Round(Math.Max(1, capacity) * plan.Start);
        var first = Step(rate);
        if (plan.Held(first)) held = first;
        else failed = first;
        // Up while it holds, down while it does not; the last step narrows a bracket once there is one.
        while (steps.Count < plan.MaxSteps && (held is null || failed is null))
        {
            rate = held is null ? (long)(rate / plan.Factor) : (long)Math.Ceiling(rate * plan.Factor);
            if (rate < 1 || steps.Any(s => s.Rate == rate)) break;
            var hold = Step(rate);
            if (plan.Held(hold)) held = hold;
            else failed = hold;
        }
        if (held is not null && failed is not null && steps.Count < plan.MaxSteps)
        {
            var middle = (long)Math.Round(Math.Sqrt((double)held.Rate * failed.Rate));
            if (middle > held.Rate && middle < failed.Rate)
            {
                var hold = Step(middle);
                if (plan.Held(hold)) held = hold;
                else failed = hold;
            }
        }

        var (estimate, kind) = Estimate(plan, held, failed, steps);
        if (estimate <= 0) return new CurveResult(steps, 0, kind, held?.Rate, failed?.Rate, null);
        // The confirmations: a long hold at the estimate meets the stalls a short step misses. One
        // that fails is followed by another at its rate ÷ confirm_backoff, up to max_confirmations;
        // the figure is the rate the first one that held held.
        var confirmations = new List<Hold>();
        for (var confirm = estimate; ;)
        {
            var confirmation = measure(confirm, plan.ConfirmSeconds, true);
            confirmations.Add(confirmation);
            if (plan.Held(confirmation) || confirmations.Count >= plan.MaxConfirmations) break;
            confirm = (long)Math.Floor(confirm / plan.ConfirmBackoff);
            if (confirm < 1) break;
        }
        // The bracket: the rate a confirmation held, and the lowest rate above it that did not hold
        // (a step or a confirmation); none held: no rate held, and the lowest confirmation's.
        var confirmed = confirmations.FirstOrDefault(plan.Held);
        var floor = confirmed?.Rate ?? 0;
        var above = steps.Concat(confirmations).Where(h => !plan.Held(h) && h.Rate > floor).Select(h => (long?)h.Rate).Min();
        if (confirmed is not null)
            return new CurveResult(steps, confirmed.Rate, above is null ? EstimateKind.AtLeast : EstimateKind.Crossing, confirmed.Rate, above, confirmed)
            { Confirmed = true, StepsRps = estimate, Confirmations = confirmations };
        // None held: the capacity is below the lowest rate confirmed, whatever the short steps said.
        var last = confirmations[^1];
        return new CurveResult(steps, last.Rate, EstimateKind.AtMost, null, last.Rate, last) { StepsRps = estimate, Confirmations = confirmations };
    }

    /// <summary>Where p99 crosses the SLO between the step that held and the one that did not.</summary>
    public static (long Rps, EstimateKind Kind) Estimate(CurvePlan plan, Hold? held, Hold? failed, IReadOnlyList<Hold> steps)
    {
        if (held is null)
        {
            // Never held: below the lowest rate tried, unless every step failed by errors alone.
            var lowest = steps.MinBy(s => s.Rate)!;
            return lowest.ErrorRate >= plan.MaxErrorRate ? (0, EstimateKind.Errors) : (lowest.Rate, EstimateKind.AtMost);
        }
        if (failed is null) return (held.Rate, EstimateKind.AtLeast);
        // A step that failed by errors or by unanswered requests has no p99 to draw a line to.
        var byLatency = failed.ErrorRate < plan.MaxErrorRate && failed.Responses >= 0.95 * failed.Planned && failed.P99Ms > held.P99Ms;
        if (!byLatency) return (held.Rate, EstimateKind.Crossing);
        var share = (plan.SloMs - held.P99Ms) / (failed.P99Ms - held.P99Ms);
        return ((long)Math.Round(held.Rate + Math.Clamp(share, 0, 1) * (failed.Rate - held.Rate)), EstimateKind.Crossing);
    }
}
