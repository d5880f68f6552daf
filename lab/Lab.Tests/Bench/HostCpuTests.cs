using Lab.Bench;

namespace Lab.Tests.Bench;

/// <summary>The machine's busy CPU as the bench reads it from /proc/stat.</summary>
public sealed class HostCpuTests
{
    [Fact]
    public void BusyIsUserNiceSystemAndStealNotIdleIowaitOrTheInterruptsThatCarryTheRunsOwnTraffic()
    {
        // user nice system idle iowait irq softirq steal guest guest_nice
        Assert.Equal(100 + 2 + 30 + 7, HostCpu.Busy("cpu  100 2 30 5000 40 3 60 7 0 0"));
        Assert.Equal(100 + 2 + 30, HostCpu.Busy("cpu 100 2 30 5000"));
        Assert.Throws<FormatException>(() => HostCpu.Busy("cpu 1 2"));
    }

    [Fact]
    public void TheMachineIsReadWhereProcStatExists()
    {
        var first = HostCpu.BusyTicks();
        Assert.NotNull(first);
        Assert.True(HostCpu.BusyTicks() >= first);
    }

    [Theory]
    [InlineData(0.31, 1.0, 2.0, "other processes took 0.31 cores (over 0.3)")]
    [InlineData(0.29, 1.0, 2.0, null)]
    [InlineData(null, 1.0, 2.0, null)]
    // Sends 6 ms late while the server answered in 2 ms: the generator's own stall.
    [InlineData(0.0, 6.0, 2.0, "the generator sent p99 6 ms late while answers took 2 ms")]
    // Sends late because answers were slow: the server's, and the hold counts.
    [InlineData(0.0, 6.0, 40.0, null)]
    public void AHoldIsRunAgainWhenOtherProcessesOrTheGeneratorDisturbedIt(double? foreign, double lateP99Ms, double actualP99Ms, string? because)
    {
        var profile = new BenchProfile { ForeignCores = 0.3, GeneratorLateMs = 5 };
        Assert.Equal(because, CellRunner.VoidBecause(profile, 10, foreign, lateP99Ms, actualP99Ms));
    }

    [Fact]
    public void TheWaitForIdleEndsWhenTheMachineIsUnderTheThresholdAndGivesUpAtItsDeadline()
    {
        // Any machine is under 100 cores busy: idle once a second has been sampled.
        Assert.True(HostCpu.WaitForIdle(100, Environment.TickCount64 + 5_000, CancellationToken.None, out var waited));
        Assert.DoesNotContain("still", waited ?? "");
        // None is under 0 cores: the wait ends at its deadline, false, saying how busy it still was.
        var start = Environment.TickCount64;
        Assert.False(HostCpu.WaitForIdle(0, start + 1_500, CancellationToken.None, out waited));
        Assert.StartsWith("the machine to go idle (still ", waited);
        Assert.True(Environment.TickCount64 - start >= 1_500);
        // A deadline of one second still measures a whole second: a machine under 100 cores is idle then.
        Assert.True(HostCpu.WaitForIdle(100, Environment.TickCount64 + 1_000, CancellationToken.None, out waited), waited);
    }
}
