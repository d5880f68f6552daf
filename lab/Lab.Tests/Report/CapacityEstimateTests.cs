using Lab.Report;

namespace Lab.Tests.Report;

public sealed class CapacityEstimateTests
{
    private static SecondPoint S(long second, long responses) => new(second, responses, 0, 1, 1, 1, 1, 0);

    [Fact]
    public void TheMedianOfTheWholeSecondsIgnoresTheRampInAndThePartialLastSecond() =>
        Assert.Equal(5000, CapacityEstimate.Of([S(0, 1000), S(1, 4900), S(2, 5000), S(3, 5200), S(4, 300)]));

    [Fact]
    public void AProbeTooShortForWholeSecondsTakesItsBestSecond() =>
        Assert.Equal(4000, CapacityEstimate.Of([S(0, 1000), S(1, 4000)]));

    [Fact]
    public void NoSecondsNoCapacity() => Assert.Equal(0, CapacityEstimate.Of([]));
}
