using Crash.Timeline;

namespace Crash.Tests;

/// <summary>
/// A run extended for its fault's restart budget ends once p99 held back under the SLO after the fault — never
/// before --seconds, never while the fault runs, and never on seconds that failed, were late or are not yet answered.
/// </summary>
public sealed class EarlyEndTests
{
    private const double SloMs = 10;

    /// <summary>Seconds 0..<paramref name="until"/> − 1 each with 100 writes answered in <paramref name="latencyMs"/>, all acknowledged.</summary>
    private static void Fill(EarlyEnd end, int from, int until, double latencyMs = 2, bool acked = true)
    {
        for (var s = from; s < until; s++)
        {
            for (var i = 0; i < 100; i++)
            {
                end.Sent(s);
                end.Completed(s, latencyMs, acked);
            }
        }
    }

    [Fact]
    public void TheRunEndsTwoSecondsAfterThreeHeldSecondsAfterTheFaultEnded()
    {
        double? faultEnded = null;
        var end = new EarlyEnd(notBeforeS: 10, SloMs, () => faultEnded);
        Fill(end, 0, 3);
        Fill(end, 3, 8, latencyMs: 50, acked: false); // the outage, 3 s to 8 s
        Fill(end, 8, 20);
        Assert.False(end.EndsAt(14), "the fault still runs: nothing ends");
        faultEnded = 7.4;
        // Held from 8 (7 is partly after the fault's end, but failed; 0–2 held before the fault, which does not count): 8, 9, 10 held, + 2 s → 13.
        Assert.Equal(8, end.HeldFrom(7.4, 20));
        Assert.False(end.EndsAt(12));
        Assert.True(end.EndsAt(13));
        Assert.Equal(8, end.HeldFromSecond);
    }

    [Fact]
    public void NeverBeforeTheSecondsAsked()
    {
        var end = new EarlyEnd(notBeforeS: 20, SloMs, () => 1.0);
        Fill(end, 0, 30);
        Assert.False(end.EndsAt(6));
        Assert.False(end.EndsAt(19));
        Assert.True(end.EndsAt(20));
    }

    [Fact]
    public void ASecondOverTheSloOrWithAFailedWriteOrAWriteNotYetAnsweredBreaksTheHeldStretch()
    {
        var end = new EarlyEnd(notBeforeS: 0, SloMs, () => 2.0);
        Fill(end, 2, 5);
        Fill(end, 5, 6, latencyMs: 10.01); // p99 over the SLO in second 5
        Fill(end, 6, 8);
        Fill(end, 8, 9, acked: false);     // second 8: every write failed, fast
        Fill(end, 9, 11);
        end.Sent(11);                       // second 11: one write not answered yet
        Fill(end, 11, 14);
        // 2, 3, 4 held: found first. Without them, nothing before 12 holds: 5 over, 8 failed, 11 still waits.
        Assert.Equal(2, end.HeldFrom(2.0, 14));

        var later = new EarlyEnd(notBeforeS: 0, SloMs, () => 4.5);
        Fill(later, 4, 6);
        Fill(later, 6, 7, latencyMs: 10.01);
        Fill(later, 7, 9);
        Fill(later, 9, 10, acked: false);
        Fill(later, 10, 12);
        later.Sent(12);
        Fill(later, 12, 16);
        Assert.Null(later.HeldFrom(4.5, 15));
        Assert.Equal(13, later.HeldFrom(4.5, 16));
        // The held stretch 13–15, + 2 s.
        Assert.False(later.EndsAt(17));
        Assert.True(later.EndsAt(18));
        Assert.Equal(13, later.HeldFromSecond);
    }

    [Fact]
    public void ASecondWithoutWritesIsNoHeldSecond()
    {
        var end = new EarlyEnd(notBeforeS: 0, SloMs, () => 0.5);
        Fill(end, 0, 2);
        Fill(end, 3, 6); // nothing was sent in second 2
        Assert.Equal(3, end.HeldFrom(0.5, 6));
    }

    [Fact]
    public void TheP99ComparedIsTheTimelinesRoundedToHundredths()
    {
        // 10.004 ms rounds to 10 ms: held, as the timeline reports it.
        var end = new EarlyEnd(notBeforeS: 0, SloMs, () => 0.0);
        Fill(end, 0, 3, latencyMs: 10.004);
        Assert.Equal(0, end.HeldFrom(0.0, 3));
    }
}
