using Crash.Commands;

using Tank.Commands;
using Crash;

namespace Crash.Tests;

/// <summary>Short runs of <c>crash run</c> against <see cref="FakeApi"/>: 100 writes a second for 2 s, the fault at 0.8 s.</summary>
[Collection(FakeApiRuns.Name)]
public sealed class CrashEndToEndTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("crash-").FullName;

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    private string Flag => Path.Combine(_dir, "down");
    private string Output => Path.Combine(_dir, "out", "result.json");

    private int Crash(FakeApi api, string kind, string faultCommand, params string[] more) =>
        CrashCli.Run(["run", "--url", api.Url, "--storage", "fake", "--kind", kind, "--rate", "100", "--seconds", "2",
            "--fault-at", "0.8", "--fault-cmd", faultCommand, "--timeout", "5s", "--out", Output, .. more]);

    [Fact]
    public async Task AnOutageWithoutLossShowsItsFailuresAndRecoveryAndNoLostKey()
    {
        await using var api = new FakeApi(Flag);
        // The outage lasts until the API has refused a request (up to 5 s), not a fixed time: on a loaded machine the fake
        // answered the writes of a 0.4-s outage only after it had ended, and none failed.
        var outage = $"touch {Flag}; for i in $(seq 100); do [ -e {api.RefusedMarker} ] && break; sleep 0.05; done; sleep 0.1; rm {Flag}; echo restarted >&2";
        Assert.Equal(0, Crash(api, "author", outage, "--label", "fake author outage"));

        var result = CrashResult.Read(Output);
        Assert.Equal("fake author outage", result.Label);
        Assert.Equal(200, result.Planned);
        Assert.Equal(200, result.Sent + result.Skipped + result.SkippedNoFreeKey);
        Assert.Equal(0, result.FaultExitCode);
        Assert.Equal("restarted", result.FaultStderrTail);
        // Order, not timing: a busy machine may start the fault late or keep it up longer.
        Assert.True(result.FaultStartedS >= 0.79, $"fault started at {result.FaultStartedS} s, before --fault-at");
        Assert.True(result.Failed.Http503 > 0, "no write failed during the outage");
        // Every refusal the API made, and nothing else, counted as a failed write. (Not when each was sent: on a loaded
        // machine a write sent just before the fault reached the fake after it, so the first failed write was sent
        // before the fault started.)
        Assert.Equal(api.WritesRefused, result.Failed.Http503);
        Assert.Equal(result.Failed.Http503, result.Failed.Total);
        Assert.Equal(result.Sent, result.Acked + result.Failed.Total);
        Assert.True(result.FirstFailureS <= result.LastFailureS, $"first failure at {result.FirstFailureS} s, last at {result.LastFailureS} s");
        Assert.True(result.RecoveryS > 0, "the recovery time should cover the outage");
        Assert.True(result.FaultEndedS is null || result.FaultStartedS + result.RecoveryS >= result.FaultEndedS - 0.1,
            "the API cannot be back before the outage ended");
        Assert.True(result.KeysAcked > 0);
        Assert.Equal(result.KeysAcked, result.Ok);
        Assert.Equal(0, result.Lost + result.Stale + result.Changed + result.Unverified);
    }

    [Fact]
    public async Task WritesAcknowledgedButNotKeptAreLostOrStale()
    {
        // Every item already holds a set before the run; dropped overwrites leave it, or the run's earlier set, in place.
        var before = Enumerable.Range(1, 50).ToDictionary(i => (long)i, i => new long[] { 100_000 - i });
        await using var api = new FakeApi(Flag, dropEvery: 7, items: before);
        Assert.Equal(0, Crash(api, "item", "true", "--items", "1-50"));

        var result = CrashResult.Read(Output);
        Assert.Equal(0, result.Failed.Total);
        Assert.Equal(0, result.RecoveryS);
        Assert.Equal(50, result.KeysWritten);
        Assert.Equal(50, result.KeysAcked);
        Assert.True(result.Lost + result.Stale > 0);
        Assert.Equal(0, result.Changed + result.Unverified);
        Assert.Equal(result.KeysAcked, result.Ok + result.Lost + result.Stale);
        Assert.All(result.Examples.Lost, e => Assert.Contains("before the run", e.Reason));
        Assert.All(result.Examples.Stale, e => Assert.NotEqual(e.Expected, e.Actual));
    }

    [Fact]
    public async Task AnApiThatNeverComesBackEndsWithExitCode1AndEveryKeyUnverified()
    {
        await using var api = new FakeApi(Flag);
        Assert.Equal(1, Crash(api, "author", $"touch {Flag}", "--recover-seconds", "1"));

        var result = CrashResult.Read(Output);
        Assert.Null(result.ReadBackReadyS);
        Assert.Null(result.RecoveryS);
        // About 60 saves are acknowledged before the fault at 0.8 s on an idle machine; on a loaded
        // one the fake API answers late, after the fault, and far fewer are: any will do here.
        Assert.True(result.KeysAcked > 0, $"{result.KeysAcked} keys acknowledged");
        Assert.Equal(result.KeysAcked, result.Unverified);
    }

    [Fact]
    public async Task AnApiThatIsDownBeforeTheRunGetsNoWriteAndNoResult()
    {
        await using var api = new FakeApi(Flag);
        File.WriteAllText(Flag, "");
        Assert.Equal(1, Crash(api, "item", "true", "--recover-seconds", "0.5"));
        Assert.False(File.Exists(Output));
        Assert.Equal(0, api.Writes);
    }
}

/// <summary>
/// A run extended for its fault's budget (<see cref="CrashOptions.EndEarly"/>) against <see cref="FakeApi"/>: 100 writes a
/// second planned for 30 s, --seconds 2, an outage at 0.8 s.
/// </summary>
[Collection(FakeApiRuns.Name)]
public sealed class EarlyEndEndToEndTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("crash-").FullName;

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    private string Flag => Path.Combine(_dir, "down");

    private CrashOptions Options(FakeApi api, double sloMs) => new()
    {
        Url = api.Url, Storage = "fake", Kind = CrashKind.Author, Rate = 100, Seconds = 30, RequestedSeconds = 2,
        SecondsSource = "extended from --seconds 2 s: a test's budget", FaultAt = 0.8, EndEarly = true, SloMs = sloMs, TimeoutMs = 5_000,
        FaultCommand = $"touch {Flag}; for i in $(seq 100); do [ -e {api.RefusedMarker} ] && break; sleep 0.05; done; sleep 0.1; rm {Flag}",
        Out = Path.Combine(_dir, "result.json"), Label = "fake author early end",
    };

    [Fact]
    public async Task ARunEndsTwoSecondsAfterP99HeldBackAndSaysSo()
    {
        await using var api = new FakeApi(Flag);
        // An SLO no answer of the fake misses on a loaded machine: the run's end depends on the fault's, not on timing.
        var (result, exit) = await new CrashTest(Options(api, sloMs: 5_000)).RunAsync();

        Assert.Equal(0, exit);
        Assert.NotNull(result);
        Assert.True(result.Failed.Http503 > 0, "no write failed during the outage");
        var timeline = Assert.IsType<Timeline.RunTimeline>(result.Timeline);
        Assert.NotNull(timeline.P99BackS);
        // The writes stopped at the first whole second 2 s after the held stretch: that is the run's length, and every write sent was due before it.
        // (P99BackS: from the fault's end to the first held second; 0 when that second began before the end.)
        var ended = result.FaultEndedS!.Value;
        var heldFrom = timeline.P99BackS == 0 ? Math.Floor(ended) : Math.Round(ended + timeline.P99BackS!.Value);
        Assert.True(result.Seconds < 30, $"the run went on for {result.Seconds} s");
        Assert.Equal(Math.Max(2, heldFrom + Timeline.RunTimeline.HeldSeconds + Timeline.EarlyEnd.MarginSeconds), result.Seconds);
        Assert.Equal(result.Seconds * 100, result.Planned);
        Assert.True(result.Sent + result.Skipped <= result.Planned, $"{result.Sent} sent, {result.Planned} planned");
        Assert.Contains($"ended early at {result.Seconds} s", result.SecondsSource);
        Assert.Equal(2, result.RequestedSeconds);
        Assert.Equal(result.KeysAcked, result.Ok);
    }

    [Fact]
    public async Task ARunWhoseP99NeverHoldsGoesOnToItsPlannedLength()
    {
        await using var api = new FakeApi(Flag);
        var options = Options(api, sloMs: 0.001) with { Seconds = 6 };
        var (result, exit) = await new CrashTest(options).RunAsync();

        Assert.Equal(0, exit);
        Assert.NotNull(result);
        Assert.Equal(6, result.Seconds);
        Assert.Equal(600, result.Planned);
        Assert.DoesNotContain("ended early", result.SecondsSource);
        Assert.Null(result.Timeline!.P99BackS);
    }
}
