using Lab.Bench;

namespace Lab.Tests.Bench;

/// <summary>
/// The curve's logic against a fake measure function whose p99 rises with the rate (no server
/// involved: the holds' outcomes are what is under test).
/// </summary>
public sealed class CapacityCurveTests
{
    private static readonly CurvePlan Plan = new(SloMs: 10, Start: 0.6, Factor: 1.3, MaxSteps: 5, StepSeconds: 4, ConfirmSeconds: 30, MaxErrorRate: 0.001, MaxConfirmations: 3, ConfirmBackoff: 1.15);

    // p99 grows linearly from 2 ms at 0 rps to 10 ms at the knee, and beyond it three times as steeply.
    private static Func<long, int, bool, Hold> Linear(long knee, List<(long Rate, int Seconds, bool Confirmation)> calls, double errorRate = 0, long? confirmKnee = null) => (rate, seconds, confirmation) =>
    {
        calls.Add((rate, seconds, confirmation));
        var k = confirmation ? confirmKnee ?? knee : knee;
        var p99 = rate <= k ? 2 + 8.0 * rate / k : 10 + 24.0 * (rate - k) / k;
        var responses = rate * seconds;
        return new Hold(rate, seconds, responses, responses, (long)(responses * errorRate), p99);
    };

    [Fact]
    public void TheCapacityIsWhereP99CrossesTheSloBetweenTheStepsAroundIt()
    {
        var calls = new List<(long, int, bool)>();
        var result = CapacityCurve.Run(Plan, 10_000, Linear(8_000, calls));
        // 6 000 held, 7 800 held, 10 140 did not; the bracket's middle 8 893 did not either.
        Assert.Equal([6_000L, 7_800, 10_140, 8_893], result.Steps.Select(s => s.Rate));
        Assert.Equal(EstimateKind.Crossing, result.Kind);
        // Interpolated between (7 800, 9.8 ms) and (8 893, 12.68 ms): 7 876, within 1 % of the true 8 000 knee's linear model.
        Assert.InRange(result.Rps, 7_800, 8_000);
        // Held there for a confirmation: the bracket is that rate and the lowest step above it that did not hold.
        Assert.Equal((result.Rps, 8_893L), (result.HeldRps!.Value, result.FailedRps!.Value));
        Assert.Equal((result.Rps, 30, true), calls[^1]);
        Assert.True(result.Confirmed);
    }

    [Fact]
    public void AStepThatFailsOnceByAStallIsMeasuredAgainAndHoldsWhenTheRetryDoes()
    {
        var calls = new List<(long Rate, int Seconds, bool Confirmation)>();
        var linear = Linear(8_000, calls);
        var stalled = false;
        // The first step meets one stall (42 ms) although its rate is under the knee; the retry does not.
        Hold OneStall(long rate, int seconds, bool confirmation)
        {
            var hold = linear(rate, seconds, confirmation);
            if (stalled) return hold;
            stalled = true;
            return hold with { P99Ms = 42 };
        }
        var result = CapacityCurve.Run(Plan with { StepRetries = 1 }, 10_000, OneStall);
        // 6 000 twice (failed, then held), then up as if nothing happened: the same steps as without the stall.
        Assert.Equal([6_000L, 6_000], calls.Take(2).Select(c => c.Rate));
        Assert.Equal([6_000L, 7_800, 10_140, 8_893], result.Steps.Select(s => s.Rate));
        Assert.InRange(result.Rps, 7_800, 8_000);
        // Without retries the same stall sends the search down: the figure falls under the first step.
        stalled = false;
        calls.Clear();
        Assert.True(CapacityCurve.Run(Plan, 10_000, OneStall).Rps < 6_000);
    }

    [Fact]
    public void AStepThatFailsTwiceFailsAndTheBetterOfTheTwoIsTheCurvesPoint()
    {
        var calls = new List<(long Rate, int Seconds, bool Confirmation)>();
        var result = CapacityCurve.Run(Plan with { StepRetries = 1 }, 10_000, Linear(8_000, calls));
        // Over the knee, 10 140 and 8 893 fail twice each: each measured twice; the bracket and the crossing are as without retries.
        Assert.Equal(2, calls.Count(c => c.Rate == 10_140 && !c.Confirmation));
        Assert.Equal(2, calls.Count(c => c.Rate == 8_893 && !c.Confirmation));
        Assert.Equal(1, calls.Count(c => c.Rate == 6_000));
        Assert.Equal([6_000L, 7_800, 10_140, 8_893], result.Steps.Select(s => s.Rate));
        Assert.InRange(result.Rps, 7_800, 8_000);
    }

    [Fact]
    public void AStepThatFailedByErrorsIsNotMeasuredAgain()
    {
        var calls = new List<(long Rate, int Seconds, bool Confirmation)>();
        CapacityCurve.Run(Plan with { StepRetries = 1 }, 10_000, Linear(8_000, calls, errorRate: 0.5));
        Assert.Equal(calls.Count, calls.Select(c => (c.Rate, c.Confirmation)).Distinct().Count());
    }

    [Fact]
    public void EveryRepetitionStartsFromTheProbeAlone()
    {
        // Two runs with the same probe try the same first rate, whatever the first one found.
        var first = new List<(long Rate, int, bool)>();
        var second = new List<(long Rate, int, bool)>();
        CapacityCurve.Run(Plan, 10_000, Linear(3_000, first));
        CapacityCurve.Run(Plan, 10_000, Linear(9_000, second));
        Assert.Equal(6_000, first[0].Rate);
        Assert.Equal(6_000, second[0].Rate);
    }

    [Fact]
    public void AConfirmationThatFailsIsFollowedByOneLowerAndTheFigureIsTheRateThatHeld()
    {
        var calls = new List<(long Rate, int Seconds, bool Confirmation)>();
        // Long holds meet stalls: they cross the SLO at 7 000, short steps at 8 000.
        var result = CapacityCurve.Run(Plan, 10_000, Linear(8_000, calls, confirmKnee: 7_000));
        var confirmations = calls.Where(c => c.Confirmation).Select(c => c.Rate).ToList();
        Assert.InRange(result.StepsRps, 7_800, 8_000);
        // At the steps' crossing (over the long holds' knee), then ÷ 1.15 (under it): held there.
        Assert.Equal([result.StepsRps, (long)Math.Floor(result.StepsRps / 1.15)], confirmations);
        Assert.Equal(confirmations[1], result.Rps);
        Assert.True(result.Confirmed);
        Assert.Equal(EstimateKind.Crossing, result.Kind);
        // The bracket: the rate the confirmation held, and the lowest rate above it that did not.
        Assert.Equal((result.Rps, result.StepsRps), (result.HeldRps!.Value, result.FailedRps!.Value));
        Assert.Equal(2, result.Confirmations.Count);
        Assert.Same(result.Confirmations[1], result.Confirmation);
    }

    [Fact]
    public void NoConfirmationHeldIsAnUpperBoundAtTheLowestRateConfirmedNeverAZero()
    {
        var calls = new List<(long Rate, int Seconds, bool Confirmation)>();
        var result = CapacityCurve.Run(Plan, 10_000, Linear(8_000, calls, confirmKnee: 100));
        Assert.False(result.Confirmed);
        Assert.Equal(3, calls.Count(c => c.Confirmation)); // max_confirmations
        Assert.Equal(EstimateKind.AtMost, result.Kind);
        Assert.Equal(calls.Where(c => c.Confirmation).Min(c => c.Rate), result.Rps);
        Assert.True(result.Rps > 0);
        Assert.True(result.Confirmation!.P99Ms > 10);
        // No rate held for a confirmation, though steps did: the bracket has no lower end.
        Assert.Equal(((long?)null, (long?)result.Rps), (result.HeldRps, result.FailedRps));
    }

    [Fact]
    public void ASingleConfirmationPlanStopsAtTheFirst()
    {
        var calls = new List<(long Rate, int Seconds, bool Confirmation)>();
        var result = CapacityCurve.Run(Plan with { MaxConfirmations = 1 }, 10_000, Linear(8_000, calls, confirmKnee: 7_000));
        Assert.Single(calls, c => c.Confirmation);
        Assert.Equal((EstimateKind.AtMost, result.StepsRps), (result.Kind, result.Rps));
    }

    [Fact]
    public void ARateBelowTheFirstStepIsFoundStepByStepDown()
    {
        var calls = new List<(long, int, bool)>();
        var result = CapacityCurve.Run(Plan, 10_000, Linear(3_000, calls));
        Assert.Equal([6_000L, 4_615, 3_550, 2_730], result.Steps.Take(4).Select(s => s.Rate));
        Assert.Equal(5, result.Steps.Count); // the last step narrows the bracket (2 730, 3 550)
        Assert.Equal(EstimateKind.Crossing, result.Kind);
        Assert.InRange(result.Rps, 2_730, 3_000);
    }

    [Fact]
    public void EveryStepHeldIsALowerBoundAtTheHighestRateTried()
    {
        var calls = new List<(long, int, bool)>();
        var result = CapacityCurve.Run(Plan, 10_000, Linear(1_000_000, calls));
        Assert.Equal(EstimateKind.AtLeast, result.Kind);
        // Every step is spent climbing when none fails: 0.6·C × 1.3⁴.
        Assert.Equal([6_000L, 7_800, 10_140, 13_182, 17_137], result.Steps.Select(s => s.Rate));
        Assert.Equal(result.Steps.Max(s => s.Rate), result.Rps);
        Assert.Null(result.FailedRps);
    }

    [Fact]
    public void NoStepHeldWithoutErrorsRecordsTheLowestRateAsAnUpperBoundNotZero()
    {
        var calls = new List<(long, int, bool)>();
        var result = CapacityCurve.Run(Plan, 10_000, Linear(10, calls));
        Assert.Equal(EstimateKind.AtMost, result.Kind);
        Assert.Equal(result.Steps.Min(s => s.Rate), result.StepsRps);
        // The confirmations went lower still, each failing: the lowest is the bound.
        Assert.Equal(result.Confirmations.Min(c => c.Rate), result.Rps);
        Assert.True(result.Rps > 0);
    }

    [Fact]
    public void OnlyACellThatAnsweredErrorsRecordsZero()
    {
        var calls = new List<(long, int, bool)>();
        var result = CapacityCurve.Run(Plan, 10_000, Linear(8_000, calls, errorRate: 0.5));
        Assert.Equal((0L, EstimateKind.Errors), (result.Rps, result.Kind));
        Assert.Null(result.Confirmation);
        Assert.DoesNotContain(calls, c => c.Item3);
    }

    [Fact]
    public void AStepThatFailedByErrorsGivesNoSlopeSoTheCapacityIsTheStepThatHeld()
    {
        var held = new Hold(6_000, 4, 24_000, 24_000, 0, 5);
        var failed = new Hold(7_800, 4, 31_200, 31_200, 3_000, 6);
        Assert.Equal((6_000L, EstimateKind.Crossing), CapacityCurve.Estimate(Plan, held, failed, [held, failed]));
    }

    [Fact]
    public void AHoldWithTooFewAnswersOrTooManyErrorsDoesNotHold()
    {
        Assert.True(Plan.Held(new Hold(100, 4, 400, 400, 0, 9.9)));
        Assert.False(Plan.Held(new Hold(100, 4, 400, 400, 0, 10.1)));
        Assert.False(Plan.Held(new Hold(100, 4, 400, 379, 0, 5)));
        Assert.False(Plan.Held(new Hold(100, 4, 400, 400, 1, 5)));
        // Late sends are in the p99 from the intended send already; they are not judged twice.
        Assert.True(Plan.Held(new Hold(100, 4, 400, 400, 0, 5, Late: 40)));
    }

    [Fact]
    public void StallsAreTheSecondsOverTheSloAndTheLongestRunOfThem()
    {
        Assert.Equal((3, 2), CellRunner.StallsOf([false, true, true, false, true, false]));
        Assert.Equal((0, 0), CellRunner.StallsOf([false, false]));
    }
}
