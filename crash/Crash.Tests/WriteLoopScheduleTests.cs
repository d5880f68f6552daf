namespace Crash.Tests;

/// <summary>When the writers send: a linear ramp up to the rate, then evenly at it.</summary>
public sealed class WriteLoopScheduleTests
{
    [Fact]
    public void ARampRisesLinearlyToTheRateAndTheWritesAfterItAreEvenlySpaced()
    {
        // 1 000/s reached after 5 s: 2 500 writes on the ramp (the area of its triangle).
        Assert.Equal(2_500, WriteLoop.RampWrites(1_000, 5));
        Assert.Equal(0, WriteLoop.DueS(0, 1_000, 5));
        // A quarter of the ramp's writes are sent in its first half: n(t) = rate·t²/(2·ramp).
        Assert.Equal(2.5, WriteLoop.DueS(625, 1_000, 5), 9);
        Assert.Equal(5, WriteLoop.DueS(2_500, 1_000, 5), 9);
        Assert.Equal(6, WriteLoop.DueS(3_500, 1_000, 5), 9);
        // On the ramp the gaps shrink; after it they are 1/rate.
        Assert.True(WriteLoop.DueS(11, 1_000, 5) - WriteLoop.DueS(10, 1_000, 5) > WriteLoop.DueS(2_001, 1_000, 5) - WriteLoop.DueS(2_000, 1_000, 5));
        Assert.Equal(0.001, WriteLoop.DueS(3_001, 1_000, 5) - WriteLoop.DueS(3_000, 1_000, 5), 9);
    }

    [Fact]
    public void WithoutARampTheWritesAreEvenlySpacedFromTheStart()
    {
        Assert.Equal(0, WriteLoop.RampWrites(1_000, 0));
        Assert.Equal(0.25, WriteLoop.DueS(250, 1_000, 0), 9);
    }
}
