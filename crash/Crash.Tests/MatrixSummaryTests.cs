using System.Text.Json;
using Crash.Check;
using Crash.Matrix;
using Crash.Queue;

namespace Crash.Tests;

public sealed class MatrixSummaryTests
{
    private static readonly RowCheck Ok = new("processCrash", "nothing", 0, false, []);

    [Fact]
    public void EveryRowOfTheJsonCarriesTheColumnsThatCompareRuns()
    {
        var path = Path.Combine(Path.GetTempPath(), $"crash-summary-{Guid.NewGuid():N}.json");
        try
        {
            MatrixSummary.WriteJson(
            [
                new CrashResult { Storage = "postgres", Kind = "kv", Fault = "db-kill", Acked = 10, Lost = 1, Stale = 2, InDoubt = 3, Check = Ok },
                new QueueResult
                {
                    Storage = "redis-rdb", Kind = "queue", Fault = "db-kill", Acked = 20, Lost = 5, Duplicated = 4, InDoubt = 6, ReadsInDoubt = 2, OldestLostAgeMs = 2500, LostAgesMs = [2500],
                    Check = new RowCheck("processCrash", "since-snapshot", 2, true, []) { WindowMs = 1000, NotChecked = "no write older than the window" },
                },
            ], path);
            using var json = JsonDocument.Parse(File.ReadAllText(path));
            var rows = json.RootElement.EnumerateArray().ToList();
            Assert.Equal(2, rows.Count);
            foreach (var field in new[] { "storage", "kind", "fault", "acked", "lost", "duplicated", "in_doubt", "stale", "check" })
                Assert.All(rows, r => Assert.True(r.TryGetProperty(field, out _), field));
            Assert.Equal(4, rows[1].GetProperty("duplicated").GetInt64());
            Assert.Equal(2, rows[1].GetProperty("reads_in_doubt").GetInt64());
            Assert.Equal("at-most-once", rows[1].GetProperty("read_path").GetString());
            Assert.Equal(2500, rows[1].GetProperty("oldest_lost_age_ms").GetInt64());
            Assert.Equal(1000, rows[1].GetProperty("check").GetProperty("window_ms").GetInt64());
            Assert.Equal("no write older than the window", rows[1].GetProperty("check").GetProperty("not_checked").GetString());
            Assert.False(rows[1].TryGetProperty("lost_ages_ms", out _));
            Assert.Equal(2, rows[0].GetProperty("stale").GetInt64());
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void FailoverRowsAreSummedUpAsADistributionOverTheirRuns()
    {
        var allowed = new RowCheck("failoverLoss", "unreplicated", null, true, []);
        RunResult Run(double? unavailable, long lost, double? idle = null) =>
            new CrashResult { Storage = "redis-sentinel", Kind = "kv", Fault = "primary-stop", Acked = 100, Lost = lost, UnavailableS = unavailable, Check = allowed, IdleCoresDuringFault = idle };
        var table = MatrixSummary.Markdown([Run(5.1, 590, 0.3), Run(3.0, 0, 1.1), Run(4.2, 12, 0.62), Run(null, 0),
            new CrashResult { Storage = "redis-sentinel", Kind = "kv", Fault = "db-kill", Acked = 100, Check = Ok }], CatalogueFixture.Load());

        // The three runs that came back: median 4.2 s, max 5.1 s; one never did; 602 lost in 2 of 4 runs; idle cores 0.3, 0.62, 1.1
        // (one run without the reading); db-kill is no failover.
        Assert.Contains("| redis-sentinel | kv | primary-stop | 4 | 4.2 s | 5.1 s | 1 | 602 (2 of 4) | 0 | 0 | — | — | 0 | 0.62 | failoverLoss: unreplicated | ok |", table);
        Assert.DoesNotContain("| redis-sentinel | kv | db-kill | 1 |", table);
        Assert.Contains("Failover: asynchronous replication, redis-sentinel, loses unreplicated.", table);
        Assert.Equal("redis-sentinel-kv-primary-kill-2.svg", MatrixSummary.ChartFile("redis-sentinel kv primary-kill #2"));
    }

    [Fact]
    public void RunsThatCouldNotStartAreListedUnderTheTable()
    {
        var ran = new CrashResult { Storage = "redis-sentinel", Kind = "kv", Fault = "power-loss", Replicated = true, Acked = 100, Check = Ok };
        var table = MatrixSummary.Markdown([ran], CatalogueFixture.Load(), ["redis-sentinel kv power-loss #2: script/services up redis-sentinel failed (see servers.log)"]);

        Assert.Contains("**Not run** (1): `script/services up` could not make the servers whole before it", table);
        Assert.Contains("- redis-sentinel kv power-loss #2: script/services up redis-sentinel failed (see servers.log)", table);
        Assert.DoesNotContain("Not run", MatrixSummary.Markdown([ran], CatalogueFixture.Load()));
    }

    [Fact]
    public void APowerLossOfEveryNodeOfAReplicatedArchitectureIsSummedUpWithTheFailovers()
    {
        var window = new RowCheck("powerLoss", "window", null, true, []);
        RunResult Run(string storage, bool replicated, long lost) =>
            new CrashResult { Storage = storage, Kind = "kv", Fault = "power-loss", Replicated = replicated, Acked = 100, Lost = lost, UnavailableS = 6.2, Check = window };
        var failovers = MatrixSummary.Failovers([Run("redis-sentinel", true, 24), Run("redis-sentinel", true, 0), Run("redis-persistent", false, 3)]);

        Assert.Contains("| redis-sentinel | kv | power-loss | 2 | 6.2 s | 6.2 s | 0 | 24 (1 of 2) |", failovers);
        Assert.DoesNotContain("redis-persistent", failovers);
    }

    [Fact]
    public void TheTableShowsAProblemAndTheStatedDurability()
    {
        var bad = new RowCheck("processCrash", "nothing", 0, false, ["1 acknowledged writes lost (processCrash: nothing)"]);
        var table = MatrixSummary.Markdown([new CrashResult { Storage = "postgres", Kind = "author", Fault = "db-kill", Acked = 10, Lost = 1, Check = bad }], CatalogueFixture.Load());
        Assert.Contains("| postgres | author | db-kill | 10 | 1 | — | 0 |", table);
        Assert.Contains("**1 acknowledged writes lost (processCrash: nothing)**", table);
        Assert.Contains("- `postgres`: processCrash nothing, powerLoss nothing.", table);
    }

    [Fact]
    public void ALossThePromiseAllowsIsShownInTheCheckColumnNotAPlainOk()
    {
        var allowed = new RowCheck("processCrash", "nothing", 2, false, []) { Notes = ["lost 2 (at-most-once read path: 2 reads in doubt)"] };
        var table = MatrixSummary.Markdown([new QueueResult { Storage = "redis-aof", Kind = "queue", Fault = "db-kill", Acked = 10, Lost = 2, ReadsInDoubt = 2, Check = allowed }], CatalogueFixture.Load());
        Assert.Contains("| lost 2 (at-most-once read path: 2 reads in doubt) |", table);
        Assert.DoesNotContain("| ok |", table);
    }

    [Fact]
    public void TheTableGivesTheOldestLostWritesAgeAgainstThePromisedWindow()
    {
        var check = new RowCheck("powerLoss", "window", 0, true, ["3 keys lost or stale by writes …"]) { WindowMs = 30_000 };
        var table = MatrixSummary.Markdown([new CrashResult { Storage = "tarantool-memtx", Kind = "kv", Fault = "power-loss", Acked = 10, Lost = 3, OldestLostAgeMs = 34_215, Check = check }], CatalogueFixture.Load());
        Assert.Contains("| tarantool-memtx | kv | power-loss | 10 | 3 | 34.22 s | 0 |", table);
        Assert.Contains("| powerLoss: window (30 s) | **3 keys lost or stale by writes …** |", table);
    }
}
