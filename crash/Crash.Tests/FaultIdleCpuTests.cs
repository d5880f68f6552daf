namespace Crash.Tests;

/// <summary>The cores left idle while a fault lasted, from two readings of the machine's idle ticks (100 a second per core).</summary>
public sealed class FaultIdleCpuTests
{
    [Fact]
    public void IdleTicksOverTheFaultAreCoresIdleOnAverage()
    {
        // 150 idle ticks in 2 s: 0.75 of a core idle.
        Assert.Equal(0.75, FaultInjector.IdleCores(1_000, 1_150, 2));
        // Two cores idle throughout 4 s.
        Assert.Equal(2, FaultInjector.IdleCores(0, 800, 4));
    }

    [Fact]
    public void WithoutAReadingOrAnyTimeThereIsNoFigure()
    {
        Assert.Null(FaultInjector.IdleCores(null, 100, 1));
        Assert.Null(FaultInjector.IdleCores(100, null, 1));
        Assert.Null(FaultInjector.IdleCores(100, 200, 0));
    }

    [Fact]
    public void TheMachinesIdleTicksAreRead() =>
        Assert.True(Harness.Processes.HostStat.IdleTicks() > 0);
}
