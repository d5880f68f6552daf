using Crash.Timeline;

namespace Crash.Tests;

/// <summary>A run second by second: p99 and 503s, and when p99 was back under the SLO after the fault.</summary>
public sealed class TimelineTests
{
    // Ten writes a second for 10 s, 2 ms each; the fault from 3 s to 5 s answers 503 in 1 ms, and p99 stays at 50 ms until 7 s.
    private static List<WriteRecord> Writes()
    {
        var writes = new List<WriteRecord>();
        for (var i = 0; i < 100; i++)
        {
            var sent = i / 10.0;
            var (latency, answer) = sent switch
            {
                >= 3 and < 5 => (0.001, ResponseClass.Unavailable),
                >= 5 and < 7 => (0.050, ResponseClass.Ack),
                _ => (0.002, ResponseClass.Ack),
            };
            writes.Add(new WriteRecord(i, $"k{i}", creates: false, $"v{i}", "u", []) { DueS = sent, SentS = sent, CompletedS = sent + latency, Class = answer });
        }
        return writes;
    }

    [Fact]
    public void P99ComesBackWhenItHoldsUnderTheSloAfterTheFaultAndThe503sMeanwhileAreCounted()
    {
        var timeline = RunTimeline.Of(Writes(), sloMs: 10, faultStartedS: 3, faultEndedS: 5, runSeconds: 10);
        Assert.Equal(10, timeline.Seconds.Count);
        Assert.Equal((10L, 10L, 50.0), (timeline.Seconds[3].Sent, timeline.Seconds[3].Http503, timeline.Seconds[5].P99Ms!.Value));
        Assert.Equal(2, timeline.P99BackS);
        Assert.Equal(20, timeline.Shed503);
    }

    [Fact]
    public void LatencyCountsFromWhenAWriteWasDueSoALateSenderDoesNotHideTheWait()
    {
        // From 1 s to 2 s the sender fell 40 ms behind: each write went 40 ms after it was due and took 2 ms.
        var writes = Writes().Select(w => { if (w.DueS is >= 1 and < 2) { w.SentS = w.DueS + 0.040; w.CompletedS = w.SentS + 0.002; } return w; }).ToList();
        var timeline = RunTimeline.Of(writes, sloMs: 10, faultStartedS: 3, faultEndedS: 5, runSeconds: 10);
        Assert.Equal(42, timeline.Seconds[1].P99Ms!.Value, 3);
        Assert.Equal(10, timeline.Seconds[1].Sent);
        Assert.Equal(42, timeline.BaselineP99Ms!.Value, 3);
    }

    [Fact]
    public void AP99ThatNeverComesBackIsNull()
    {
        var writes = Writes().Select(w => { if (w.DueS >= 5) w.CompletedS = w.DueS + 0.05; return w; }).ToList();
        Assert.Null(RunTimeline.Of(writes, sloMs: 10, faultStartedS: 3, faultEndedS: 5, runSeconds: 10).P99BackS);
    }

    [Fact]
    public void FewerThanTheHeldSecondsUnderTheSloAtTheRunsEndAreNotARecovery()
    {
        // p99 at 50 ms until 8 s: only seconds 8 and 9 are under the SLO before the run ends, not the 3 it must hold.
        var writes = Writes().Select(w => { if (w.DueS is >= 5 and < 8) w.CompletedS = w.DueS + 0.05; return w; }).ToList();
        var timeline = RunTimeline.Of(writes, sloMs: 10, faultStartedS: 3, faultEndedS: 5, runSeconds: 10);
        Assert.Null(timeline.P99BackS);
        Assert.Null(timeline.BaselineBackS);
        Assert.Contains("p99 not back under the SLO within the run", TimelineSvg.Render(timeline, "x"));
        Assert.Contains("| not within the run |", Crash.Matrix.MatrixSummary.Timelines([new CrashResult { Label = "x", Timeline = timeline }]));
    }

    [Fact]
    public void ALastSecondCutShortByTheRunsEndIsNotAWholeSecondUnderTheSlo()
    {
        // A run of 9.5 s: p99 back under the SLO at 7 s, but 9 s holds only half a second of writes.
        var writes = Writes().Where(w => w.DueS < 9.5).ToList();
        Assert.Null(RunTimeline.Of(writes, sloMs: 10, faultStartedS: 3, faultEndedS: 5, runSeconds: 9.5).P99BackS);
    }

    [Fact]
    public void ASecondWithoutWritesBreaksTheSecondsInARow()
    {
        // Nothing was due in second 8 (every write skipped): 7 and 9 are not three seconds in a row under the SLO.
        var writes = Writes().Where(w => w.DueS is < 8 or >= 9).ToList();
        Assert.Null(RunTimeline.Of(writes, sloMs: 10, faultStartedS: 3, faultEndedS: 5, runSeconds: 10).P99BackS);
    }

    [Fact]
    public void WhereTheLoadAloneKeptP99OverTheSloTheReturnToTheRunsOwnLevelIsMeasured()
    {
        // 30 ms before the fault (over the 10-ms SLO), 50 ms from 5 s to 7 s, 30 ms again after.
        var writes = Writes().Select(w =>
        {
            if (w.Class == ResponseClass.Ack) w.CompletedS = w.DueS + (w.DueS is >= 5 and < 7 ? 0.050 : 0.030);
            return w;
        }).ToList();
        var timeline = RunTimeline.Of(writes, sloMs: 10, faultStartedS: 3, faultEndedS: 5, runSeconds: 10);
        Assert.Null(timeline.P99BackS);
        Assert.Equal(30, timeline.BaselineP99Ms!.Value, 3);
        Assert.Equal(2, timeline.BaselineBackS);
        Assert.Contains("back to its 30 ms before the fault (grey) 2 s after", TimelineSvg.Render(timeline, "x"));

        // Under the SLO before the fault, both measures are the same.
        var clean = RunTimeline.Of(Writes(), sloMs: 10, faultStartedS: 3, faultEndedS: 5, runSeconds: 10);
        Assert.Equal(2, clean.BaselineP99Ms!.Value, 3);
        Assert.Equal(clean.P99BackS, clean.BaselineBackS);
    }

    [Fact]
    public void TheChartShadesTheFaultAndDrawsTheSlo()
    {
        var svg = TimelineSvg.Render(RunTimeline.Of(Writes(), 10, 3, 5, 10), "postgres kv db-stop <x>");
        Assert.StartsWith("<svg", svg);
        Assert.Contains("<title>fault 3–5 s</title>", svg);
        Assert.Contains("SLO 10 ms (red)", svg);
        Assert.Contains("postgres kv db-stop &lt;x&gt;", svg);
        Assert.Contains("p99 back under the SLO 2 s after the fault; 20 answered 503 meanwhile", svg);
    }

    [Fact]
    public void EveryCaptionLineFitsTheChartsWidth()
    {
        // The longest of each: a p99 never back and never back to a level the load kept over the SLO, with many 503s.
        var lines = TimelineSvg.CaptionLines(10, "p99 not back under the SLO within the run", 1_234_567,
            "not back to its 1234.5 ms before the fault (grey) within the run");
        Assert.Equal(3, lines.Count);
        // At most 0.6 em a character in a sans-serif font.
        Assert.All(lines, line => Assert.True(line.Length * 0.6 * TimelineSvg.CaptionFontSize <= TimelineSvg.CaptionWidth,
            $"'{line}' ({line.Length} characters) runs past {TimelineSvg.CaptionWidth} px"));
        Assert.Equal(2, TimelineSvg.CaptionLines(10, "p99 back under the SLO 2 s after the fault", 3, null).Count);
    }

    [Fact]
    public void AFaultThatOutlastsTheRunIsShadedToThePlotsEdge()
    {
        // 10 s of writes on a plot from x 60 to 690: the fault from 3 s (x 249) to 50 s ends at the edge, 441 wide.
        var svg = TimelineSvg.Render(RunTimeline.Of(Writes(), 10, 3, 50, 10), "nats-r3 queue power-loss");
        Assert.Contains("<rect x=\"249\" y=\"40\" width=\"441\" height=", svg);
        Assert.Contains("<title>fault 3–50 s</title>", svg);
    }
}
