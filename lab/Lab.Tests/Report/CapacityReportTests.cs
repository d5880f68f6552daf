using System.Text.Json;
using Lab.Report;

namespace Lab.Tests.Report;

/// <summary>capacity.json beside a run (lab bench): the summary's capacity, the repetitions' median and interval, and summary.json's capacity.</summary>
public sealed class CapacityReportTests
{
    private const string Schedule = "const(100, 10s)";

    // Each repetition's confirmed rate, as lab bench writes them.
    private static CapacityFile Capacity(params long[] confirmed) => CapacityFile.Of(
        [.. confirmed.Select((r, i) => new RepeatRecord(i + 1, r, r > 0 ? 4.2 : null, CpuUsPerRequest: 100 + i * 10) { Confirmed = r > 0 })],
        [new HoldRecord(900, 2, 4.2, 0, 1800, true, false), new HoldRecord(900, 15, 4.2, 0, 13500, true, true)], 15);

    [Fact]
    public void WithoutCapacityJsonTheSummaryIsAsBefore()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        ReportBuilder.Build(dir.Path, sloMs: 10);
        var md = dir.Read("report.md");
        Assert.Contains("| architecture | author-read: rps @ SLO · p99 ms |", md);
        Assert.DoesNotContain("confirmed", md);
    }

    [Fact]
    public void TheSummaryShowsTheMedianConfirmedRateWithItsRange()
    {
        using var dir = new RunDirectory();
        Capacity(1000, 1100, 1050).Write(dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule));
        Capacity(0, 0, 0).Write(dir.Run("tarantool-memtx", "author-read", 10, _ => 100, _ => 1, Schedule));
        ReportBuilder.Build(dir.Path, sloMs: 10);
        var md = dir.Read("report.md");
        Assert.Contains("| architecture | author-read: capacity @ SLO [interval] (ramp: rps @ SLO, p99) |", md);
        Assert.Contains("| postgres | 1050 [1000–1100] (ramp: ≥ 100, p99 1.00 ms) |", md);
        // Only errors in every repetition: 0, no interval.
        Assert.Contains("| tarantool-memtx | 0 (ramp: ≥ 100, p99 1.00 ms) |", md);
        Assert.Contains("\"capacity\" is the rate a repetition held at the SLO for a whole confirmation", md);
        Assert.Contains("held for 15 s", md);

        using var summary = JsonDocument.Parse(dir.Read("summary.json"));
        var capacity = summary.RootElement.GetProperty("runs").EnumerateArray().Single(r => r.GetProperty("storage").GetString() == "postgres").GetProperty("capacity");
        Assert.Equal(1050, capacity.GetProperty("confirmed_rps").GetInt64());
        Assert.Equal(4.2, capacity.GetProperty("confirmed_p99_ms").GetDouble());
        Assert.Equal([1000L, 1100, 1050], summary.RootElement.GetProperty("runs").EnumerateArray().Single(r => r.GetProperty("storage").GetString() == "postgres")
            .GetProperty("repeats").EnumerateArray().Select(e => e.GetProperty("rps").GetInt64()));
        Assert.Equal(1050, capacity.GetProperty("median").GetDouble());
        Assert.Equal((1000.0, 1100.0), (capacity.GetProperty("spread").GetProperty("min").GetDouble(), capacity.GetProperty("spread").GetProperty("max").GetDouble()));
        // What compare reads: the median and its interval (three repetitions: their min–max).
        var cell = Lab.Compare.ReportFileReader.Read(dir.Path).Cells.Single(c => c.Storage == "postgres");
        Assert.Equal((1050.0, new Lab.Compare.Spread(1000, 1100)), (cell.Capacity.Value, cell.Capacity.Spread));
        Assert.Equal((15.0, true), (capacity.GetProperty("holds")[1].GetProperty("seconds").GetDouble(), capacity.GetProperty("holds")[1].GetProperty("confirmation").GetBoolean()));
    }

    [Fact]
    public void ACellMostOfWhoseRepetitionsHeldNoConfirmationIsMarkedInTheSummaryAndDrawnHollow()
    {
        using var dir = new RunDirectory();
        // redis-sentinel: every repetition's confirmations failed, each reads "≤" its lowest confirmed rate.
        CapacityFile.Of([.. new long[] { 12929, 13448, 12900 }.Select((r, i) => new RepeatRecord(i + 1, r, 40.1) { Kind = "at_most", Confirmed = false })], [], 30)
            .Write(dir.Run("redis-sentinel", "queue-write", 10, _ => 100, _ => 1, Schedule));
        // nats-r3: two of three held, a rate the stack holds.
        CapacityFile.Of([new RepeatRecord(1, 4280, 5) { Confirmed = true }, new RepeatRecord(2, 3952, 5) { Kind = "at_most" }, new RepeatRecord(3, 4773, 5) { Confirmed = true }], [], 30)
            .Write(dir.Run("nats-r3", "queue-write", 10, _ => 100, _ => 1, Schedule));
        ReportBuilder.Build(dir.Path, sloMs: 10);

        var md = dir.Read("report.md");
        Assert.Contains("| redis-sentinel | ≤ 12929 [12900–13448] not established (held in 0 of 3) (ramp: ≥ 100, p99 1.00 ms) |", md);
        Assert.Contains("| nats-r3 | 4280 [3952–4773] unstable (ramp: ≥ 100, p99 1.00 ms) |", md);
        Assert.Contains("≤ 12929 [12900–13448] not established (held in 0 of 3)", dir.Read("report.html"));
        // The verdict halves the best capacity established (nats-r3's 4280), not a bound (redis-sentinel's).
        Assert.Contains("Which architectures hold 2000 requests/s at p99 ≤ 10.0 ms in queue-write?", md);
        Assert.Contains("**Qualifies: nats-r3.**", md);
        Assert.Matches(@"\| redis-sentinel \| ≤ 12929 \| ≤ 6\.46× \|.*is not established \|", md);

        var chart = dir.Read(Path.Combine("charts", "comparison.svg"));
        Assert.Contains("hollow, ≤: not established", chart);
        Assert.Matches("fill=\"white\" stroke=\"#[0-9a-fA-F]{6}\"[^>]*><title>redis-sentinel queue-write: ≤ 12929 \\(not established", chart);
        Assert.Contains(">≤12.93k<", chart);
        Assert.DoesNotMatch("fill=\"white\"[^>]*><title>nats-r3", chart);
        Assert.Contains("<title>nats-r3 queue-write: 4280</title>", chart);
    }

    [Fact]
    public void AnOlderCapacityJsonWhoseRepeatsWereRampsGivesTheConfirmedRateNoSpread()
    {
        using var dir = new RunDirectory();
        var path = dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        File.WriteAllText(Path.Combine(path, "capacity.json"), """
            {"confirmed_rps": 6669, "confirmed_p99_ms": 4.2, "confirm_seconds": 15, "holds": [],
             "repeats": [{"repeat": 1, "max_rps_at_slo": 0, "p99_ms": 3}, {"repeat": 2, "max_rps_at_slo": 19465, "p99_ms": 3}],
             "median": 9732, "spread": {"min": 0, "max": 19465}}
            """);
        ReportBuilder.Build(dir.Path, sloMs: 10);
        Assert.Contains("| postgres | 6669 (ramp: ≥ 100, p99 1.00 ms) |", dir.Read("report.md"));
        var cell = Lab.Compare.ReportFileReader.Read(dir.Path).Cells.Single();
        Assert.Equal((6669.0, Lab.Compare.Spread.Of(6669)), (cell.Capacity.Value, cell.Capacity.Spread));
    }

    [Fact]
    public void CapacityJsonRoundTrips()
    {
        using var dir = new RunDirectory();
        var path = dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        Capacity(1000, 1100, 1050).Write(path);
        var read = CapacityFile.TryRead(path)!;
        Assert.Equal((1050L, 4.2, 3, 2, 1050.0, 110.0), (read.ConfirmedRps, read.ConfirmedP99Ms, read.Repeats.Count, read.Holds.Count, read.Median, read.ConfirmedCpuUsPerRequest));
        Assert.Contains("\"confirmed_rps\": 1050", File.ReadAllText(Path.Combine(path, "capacity.json")));
    }

    [Fact]
    public void ARepetitionThatCouldNotRunMakesTheCellUnstableAndSaysWhy()
    {
        var repeats = new[] { new RepeatRecord(1, 1000, 5) { Confirmed = true }, new RepeatRecord(3, 1010, 5) { Confirmed = true } };
        Assert.False(CapacityFile.Of(repeats, [], 30).Unstable);
        var file = CapacityFile.Of(repeats, [], 30, 0.15, ["repetition 2 could not run: Tarantool error 2: Failed to allocate 16384 bytes"]);
        Assert.True(file.Unstable);
        Assert.Equal("repetition 2 could not run: Tarantool error 2: Failed to allocate 16384 bytes", file.UnstableBecause[0]);
        Assert.Single(file.FailedRepetitions);
    }

    [Fact]
    public void TheServicesOwnGcPausesInAConfirmationAreNamedAsACauseAndKeptPerHold()
    {
        var repeats = new[] { new RepeatRecord(1, 1000, 5) { Confirmed = true }, new RepeatRecord(2, 1500, 5) { Confirmed = true } };
        HoldRecord Confirmation(double? gcMs) => new(1000, 30, 5, 0, 30_000, true, true) { ServiceGcPauseMs = gcMs };
        Assert.Contains("the service's garbage collector paused it up to 212 ms in a confirmation", CapacityFile.Of(repeats, [Confirmation(3), Confirmation(212)], 30).UnstableBecause);
        // Short pauses, a step's long one, or none read: not a cause.
        Assert.DoesNotContain(CapacityFile.Of(repeats, [Confirmation(9.9), Confirmation(null), new HoldRecord(1000, 3, 5, 0, 3000, true, false) { ServiceGcPauseMs = 300 }], 30).UnstableBecause,
            c => c.Contains("garbage collector", StringComparison.Ordinal));

        using var dir = new RunDirectory();
        var path = dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        CapacityFile.Of(repeats, [Confirmation(212)], 30).Write(path);
        Assert.Equal(212, CapacityFile.TryRead(path)!.Holds.Single().ServiceGcPauseMs);
    }

    [Fact]
    public void RedisForksInAConfirmationAreNamedAsACauseAndKeptPerHold()
    {
        var repeats = new[] { new RepeatRecord(1, 1000, 5) { Confirmed = true }, new RepeatRecord(2, 1500, 5) { Confirmed = true } };
        HoldRecord Confirmation(long? forks, double? forkMs) => new(1000, 30, 5, 0, 30_000, true, true) { ServerForks = forks, LongestForkMs = forkMs };
        Assert.Contains("Redis forked (a snapshot or an AOF rewrite) during 2 confirmation(s), 3 time(s) in all, a fork blocking it up to 41.5 ms",
            CapacityFile.Of(repeats, [Confirmation(1, 2.5), Confirmation(2, 41.5), Confirmation(0, null)], 30).UnstableBecause);
        // No fork, none read, or a step's fork: not a cause.
        Assert.DoesNotContain(CapacityFile.Of(repeats, [Confirmation(0, null), Confirmation(null, null), new HoldRecord(1000, 8, 5, 0, 8000, true, false) { ServerForks = 4 }], 30).UnstableBecause,
            c => c.Contains("forked", StringComparison.Ordinal));

        using var dir = new RunDirectory();
        var path = dir.Run("redis-sentinel", "queue-write", 10, _ => 100, _ => 1, Schedule);
        CapacityFile.Of(repeats, [Confirmation(2, 41.5)], 30).Write(path);
        Assert.Equal((2L, 41.5), (CapacityFile.TryRead(path)!.Holds.Single().ServerForks, CapacityFile.TryRead(path)!.Holds.Single().LongestForkMs));
        ReportBuilder.Build(dir.Path, sloMs: 10);
        Assert.Contains("\"server_forks\": 2", dir.Read("summary.json"));
    }

    [Fact]
    public void TheGcPauseTotalIsReadFromAPrometheusScrape()
    {
        Assert.Equal(0.27503, Lab.Bench.ServiceClient.GcPauseSeconds("# TYPE system_runtime_dotnet_gc_pause_time gauge\nsystem_runtime_dotnet_gc_pause_time 0.27503\nother 1\n"));
        Assert.Null(Lab.Bench.ServiceClient.GcPauseSeconds("system_runtime_dotnet_gc_collections{gc_heap_generation=\"gen0\"} 4\n"));
    }

    [Fact]
    public void TheReportShowsEveryRepetitionAndTheMethodAsRun()
    {
        using var dir = new RunDirectory();
        var run = dir.Run("postgres", "author-read", 10, _ => 100, _ => 1, Schedule);
        CapacityFile.Of(
        [
            new RepeatRecord(1, 1000, 8.5, CpuUsPerRequest: 40) { Order = 2, Kind = "crossing", HeldRps = 1000, FailedRps = 1100, Confirmed = true, WindowP99Ms = [8.1, 8.9], StallSeconds = 1, LongestStallSeconds = 1,
                ProcessCpuUsPerRequest = new Dictionary<string, double> { ["tank"] = 12.5, ["service"] = 30 }, Reset = new ResetRecord(["servers settled"], 1.6, "nothing", true) },
            new RepeatRecord(2, 800, 14.2) { Order = 1, Kind = "at_most", StepsRps = 900, HeldRps = null, FailedRps = 800, Confirmed = false, WindowP99Ms = [30.5, 4.2], Reruns = 1,
                EarlierConfirmations = [new ConfirmationTry(900, 31)],
                Reset = new ResetRecord(["queue emptied"], 10, "the machine to go idle (still 0.5 cores busy after 10 s)", false) },
        ], [], 30).Write(run);
        File.WriteAllText(Path.Combine(dir.Path, "profile.yaml"), "# read from lab/profiles/default.yaml\nname: default\nrepeats: 2\n");
        File.WriteAllText(Path.Combine(dir.Path, "order.json"), """{"shuffle_seed": 1, "rounds": [{"round": 1, "order": [{"storage": "postgres", "scenario": "author-read"}]}]}""");
        ReportBuilder.Build(dir.Path, sloMs: 10);
        var md = dir.Read("report.md");
        Assert.Contains("## Repetitions", md);
        Assert.Contains("| postgres · author-read | 1 | 2 | 1000 | 1000 / 1100 | ✓ 8.5 (8.1 / 8.9) | 1 (1) | 12.5 | 40 | nothing | 0 |", md);
        // No confirmation held: an upper bound, every confirmation shown in order.
        Assert.Contains("| postgres · author-read | 2 | 1 | ≤ 800 (steps 900) | — / 800 | ✗ 31 at 900 → ✗ 14.2 (30.5 / 4.2) | 0 | — | — | the machine to go idle (still 0.5 cores busy after 10 s) (not idle) | 1 |", md);
        Assert.Contains("## The method as run", md);
        Assert.Contains("repeats: 2", md);
        Assert.Contains("- round 1: author-read on postgres", md);
        Assert.Contains("<h2>The method as run</h2>", dir.Read("report.html"));
    }
}
