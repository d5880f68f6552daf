using Lab.Bench;
using Tank.Schedule;
using Lab.Cluster;

namespace Lab.Tests.Bench;

/// <summary>The schedules a cell runs are derived from its probed capacity and parse as Tank schedules.</summary>
public sealed class BenchProfileTests
{
    [Theory]
    [InlineData(false, 2000, "line(1, 2000, 2s)", "line(1, 3000, 6s)")]
    [InlineData(true, 2000, "line(1, 2000, 1s)", "line(1, 3000, 4s)")]
    [InlineData(true, 10, "line(1, 10, 1s)", "line(1, 15, 4s)")]
    public void WarmUpClimbsToCAndTheMeasuredRampToOneAndAHalfC(bool quick, long capacity, string warmup, string ramp)
    {
        var profile = BenchProfile.For(quick);
        Assert.Equal((warmup, ramp), (profile.Warmup(capacity), profile.Ramp(capacity)));
        Assert.Equal(profile.RampSeconds * 1000, ScheduleParser.Parse(ramp).DurationMs);
    }

    [Fact]
    public void QueueReadsCoverTheAreasUnderWarmUpAndRampWithTwentyPercentToSpare()
    {
        var profile = BenchProfile.For(quick: false);
        var warmupAndRamp = ScheduleParser.Parse(profile.Warmup(1000)).Count + ScheduleParser.Parse(profile.Ramp(1000)).Count;
        var needed = profile.QueueReadsNeeded(1000);
        Assert.Equal((1000 * 2 + 1500 * 6) * 6 / 10 + 1000, needed);
        Assert.Equal(1500 * 6 * 6 / 10 + 1000, profile.QueueReadsNeeded(1000, warmup: false));
        Assert.Equal(1000 * 2 * 12 / 10 + 1000, BenchProfile.QueueReadsNeeded(1000, 2));
        Assert.InRange(needed, warmupAndRamp * 1.2, warmupAndRamp * 1.2 + 1100);
    }

    [Fact]
    public void QuickIsSmallerEverywhere()
    {
        var (quick, full) = (BenchProfile.For(true), BenchProfile.For(false));
        Assert.True(quick.Items < full.Items && quick.AmmoCount < full.AmmoCount && quick.RampSeconds < full.RampSeconds && quick.KvKeys < full.KvKeys);
        Assert.True(quick.Repeats == 1 && full.Repeats == 3 && quick.ConfirmSeconds < full.ConfirmSeconds && full.ConfirmSeconds >= 15);
        // Holds long enough that one slow second is a third of the judgement, not half of it.
        Assert.True(full.HoldSeconds >= 3 && quick.HoldSeconds < full.HoldSeconds && full.Search(10).WarmupSeconds >= 1);
        // A later repetition starts from the previous confirmed rate: fewer holds, the same confirmation.
        Assert.True(full.Search(10, repeat: 2).Steps < full.Search(10).Steps && full.Search(10, repeat: 2).ConfirmSeconds == full.ConfirmSeconds);
        Assert.True(full.Search(10, repeat: 2).TrustHint && !full.Search(10).TrustHint);
        // After repetitions that confirmed nothing, the start is only the ramp's estimate: a full search again.
        Assert.Equal((false, full.Search(10).Steps), (full.Search(10, repeat: 2, confirmedBefore: false).TrustHint, full.Search(10, repeat: 2, confirmedBefore: false).Steps));
        foreach (var p in new[] { quick, full })
        {
            ScheduleParser.Parse(p.ProbeSchedule);
            ScheduleParser.Parse(p.PrefillSchedule);
            Assert.Equal(p.PrefillCount, ScheduleParser.Parse(p.PrefillSchedule).Count);
        }
    }

    [Fact]
    public void TheNoteSaysHowTheRunWasMade()
    {
        var note = BenchReport.Note(BenchProfile.For(true), new BenchOptions { ServiceDll = "s.dll", Root = "/r", ClusterNodes = 3, Seed = 7 });
        Assert.Contains("10000 locations, 50000 items", note);
        Assert.Contains("ammo seed 7", note);
        Assert.Contains("measured line(1, 1.5·C, 4s); then the capacity at the SLO once: up to 3 holds", note);
        Assert.Contains("node 0 of a 3-node sharded cluster", note);
        Assert.EndsWith("not a basis for conclusions", note);
    }
}
