using Tank.Bench;

namespace Tank.Tests.Bench;

/// <summary>
/// The search's logic against a fake measure function: a target that holds the SLO up to a
/// knee and not above it (no server involved: the holds' outcomes are what is under test).
/// </summary>
public sealed class CapacitySearchTests
{
    private static readonly SearchPlan Plan = new(Steps: 6, HoldSeconds: 2, ConfirmSeconds: 15, SloMs: 10);

    // Holds the SLO up to knee rps (p99 5 ms), not above (p99 40 ms); confirmations fail above confirmKnee.
    private static Func<long, int, Hold> Target(long knee, long? confirmKnee, List<(long Rate, int Seconds)> calls) => (rate, seconds) =>
    {
        calls.Add((rate, seconds));
        var limit = seconds >= Plan.ConfirmSeconds ? confirmKnee ?? knee : knee;
        return new Hold(rate, seconds, rate * seconds, rate * seconds, 0, rate <= limit ? 5 : 40);
    };

    [Fact]
    public void BisectionConvergesBelowTheKneeAndTheConfirmationHoldsIt()
    {
        var calls = new List<(long, int)>();
        var result = CapacitySearch.Run(Plan, top: 15_000, hint: null, Target(7_300, null, calls));
        Assert.Equal(6, result.Holds.Count);
        Assert.All(result.Holds, h => Assert.Equal(2, h.Seconds));
        Assert.Equal([7_500L, 3_750, 5_625, 6_562, 7_031, 7_265], result.Holds.Select(h => h.Rate));
        Assert.Equal(7_265, result.ConfirmedRps);
        Assert.Equal((7_265L, 15), calls[^1]);
        Assert.Equal(5, result.Confirmation!.P99Ms);
    }

    [Fact]
    public void TheRampsEstimateIsTriedFirst()
    {
        var calls = new List<(long, int)>();
        var result = CapacitySearch.Run(Plan, top: 15_000, hint: 7_000, Target(7_300, null, calls));
        Assert.Equal(7_000, calls[0].Item1);
        Assert.Equal(11_000, calls[1].Item1); // between the hint that held and the top
        Assert.InRange(result.ConfirmedRps, 7_000, 7_300);
    }

    [Fact]
    public void AHintFarBelowTheTopIsIgnored()
    {
        var calls = new List<(long, int)>();
        CapacitySearch.Run(Plan, top: 15_000, hint: 15, Target(7_300, null, calls));
        Assert.Equal(7_500, calls[0].Item1);
    }

    [Fact]
    public void AFailedConfirmationIsTriedOnceTenPercentLower()
    {
        var calls = new List<(long, int)>();
        var result = CapacitySearch.Run(Plan, top: 10_000, hint: null, Target(5_000, confirmKnee: 4_600, calls));
        Assert.Equal(2, result.Confirmations.Count);
        Assert.False(result.Confirmations[0].Held(10));
        Assert.Equal(result.Confirmations[0].Rate * 9 / 10, result.ConfirmedRps);
    }

    [Fact]
    public void NothingHoldingConfirmsNothing()
    {
        var calls = new List<(long, int)>();
        var result = CapacitySearch.Run(Plan, top: 1_000, hint: null, Target(0, null, calls));
        Assert.Equal(0, result.ConfirmedRps);
        Assert.Empty(result.Confirmations);
        Assert.Null(result.Confirmation);
        Assert.All(calls, c => Assert.Equal(2, c.Item2));
    }

    [Fact]
    public void TheSearchStopsOnceTheBracketIsWithinOnePercent()
    {
        var calls = new List<(long, int)>();
        CapacitySearch.Run(Plan with { Steps = 40 }, top: 1_000, hint: null, Target(500, null, calls));
        Assert.InRange(calls.Count(c => c.Item2 == 2), 5, 12);
    }

    [Theory]
    [InlineData(1000, 1000, 0, 9.9, true)]
    [InlineData(1000, 1000, 0, 10.1, false)]
    [InlineData(1000, 1000, 1, 5, false)] // 0.1 % errors is not under 0.1 %
    [InlineData(2000, 1899, 0, 5, false)] // fewer than 95 % of the planned requests answered
    [InlineData(2000, 0, 0, 0, false)]
    public void AHoldHoldsOnlyUnderTheSloWithFewErrorsAtTheRateAsked(long planned, long responses, long errors, double p99, bool held) =>
        Assert.Equal(held, new Hold(1000, 2, planned, responses, errors, p99).Held(10));

    [Fact]
    public void TheMedianOfTheRepeats()
    {
        Assert.Equal(5, CellRunner.Median([9, 1, 5]));
        Assert.Equal(4, CellRunner.Median([5, 3]));
        Assert.Equal(0, CellRunner.Median([]));
    }
}
