using Crash.Check;
using Crash.Matrix;

namespace Crash.Tests;

public sealed class DurabilityCheckTests
{
    private static RowCheck Judge(string storage, string fault, RowFacts facts) =>
        DurabilityCheck.Judge(facts, Faults.Find(fault)!, CatalogueFixture.Entry(storage));

    private static RowFacts Queue(long lost, long readsInDoubt = 0, long duplicated = 0, long unexpected = 0, ReadPath path = ReadPath.AtMostOnce) =>
        new(CrashKind.Queue, Acked: 1000, Lost: lost, Stale: 0, Duplicated: duplicated, Unexpected: unexpected, ReadsInDoubt: readsInDoubt, ReadPath: path);

    [Fact]
    public void ASnapshotQueueMayLoseAndRedeliverOnAKill()
    {
        var check = Judge("redis-rdb", "db-kill", Queue(lost: 300, readsInDoubt: 2, duplicated: 40));
        Assert.True(check.Ok);
        Assert.Equal(("processCrash", "since-snapshot", (long?)null, true), (check.Promise, check.Promised, check.AllowedLost, check.DuplicatesAllowed));
    }

    [Theory]
    [InlineData("redis-aof")]
    [InlineData("postgres")]
    [InlineData("tarantool-memtx")]
    [InlineData("beanstalkd")]
    public void AQueueOnTheAtMostOnceReadPathThatLosesNoMoreThanItsReadsInDoubtPassesButReportsTheLoss(string storage)
    {
        var check = Judge(storage, "db-kill", Queue(lost: 4, readsInDoubt: 4));
        Assert.True(check.Ok);
        Assert.Equal(4, check.AllowedLost);
        Assert.Equal(["lost 4 (at-most-once read path: 4 reads in doubt)"], check.Notes);
        Assert.Equal("lost 4 (at-most-once read path: 4 reads in doubt)", MatrixSummary.CheckCell(check));
    }

    [Fact]
    public void AQueueOnTheAtMostOnceReadPathThatLosesMoreThanItsReadsInDoubtFails()
    {
        var check = Judge("redis-aof", "db-kill", Queue(lost: 4, readsInDoubt: 3));
        Assert.False(check.Ok);
        Assert.Contains("4 acknowledged messages lost, more than the 3 reads in doubt (processCrash: nothing)", check.Problems);
        Assert.StartsWith("**4 acknowledged messages lost", MatrixSummary.CheckCell(check));
    }

    [Fact]
    public void AnAtLeastOnceReadPathThatLosesOneMessageFailsWhateverItsReadsInDoubt()
    {
        var check = Judge("redis-aof", "db-kill", Queue(lost: 1, readsInDoubt: 3, duplicated: 2, path: ReadPath.AtLeastOnce));
        Assert.Equal(0, check.AllowedLost);
        Assert.Equal(["1 acknowledged messages lost (at-least-once read path, processCrash: nothing)"], check.Problems);
        Assert.True(check.DuplicatesAllowed);
    }

    [Fact]
    public void AQueueRowThatDoesNotSayItsReadPathMayLoseNothing() =>
        Assert.False(Judge("postgres", "db-kill", Queue(lost: 1, readsInDoubt: 1) with { ReadPath = null }).Ok);

    [Fact]
    public void OnlyAnAtLeastOnceQueueMayDuplicateWhenItKeepsEverything()
    {
        Assert.True(Judge("beanstalkd", "service-kill", Queue(lost: 0, duplicated: 5)).Ok);
        Assert.Contains("5 messages delivered more than once (at-most-once, processCrash: nothing)", Judge("redis-aof", "service-kill", Queue(lost: 0, duplicated: 5)).Problems);
    }

    [Fact]
    public void A500InsteadOfA503IsAlwaysAProblem()
    {
        var check = Judge("tarantool-vinyl", "power-loss", Queue(lost: 100) with { ServerErrors = 1 });
        Assert.Contains("1 writes answered a 5xx other than 503 (a backend's failure must be a 503 with Retry-After)", check.Problems);
        Assert.Equal(1, new FailureCounts { OtherStatuses = new(StringComparer.Ordinal) { ["500"] = 1, ["503"] = 0, ["409"] = 2 } }.ServerErrors);
    }

    [Fact]
    public void AMessageNeverWrittenIsAlwaysAProblem() =>
        Assert.False(Judge("redis-rdb", "db-kill", Queue(lost: 0, unexpected: 1)).Ok);

    [Fact]
    public void AKeyStoreThatKeepsEverythingMayLoseNothingAndGoBackNowhere()
    {
        Assert.True(Judge("postgres", "db-stop", new RowFacts(CrashKind.Author, 500, Lost: 0, Stale: 0)).Ok);
        Assert.False(Judge("postgres", "db-stop", new RowFacts(CrashKind.Author, 500, Lost: 1, Stale: 0)).Ok);
        Assert.False(Judge("tarantool-vinyl", "db-kill", new RowFacts(CrashKind.Item, 500, Lost: 0, Stale: 1)).Ok);
        Assert.False(Judge("postgres-redis-cache", "db-kill", new RowFacts(CrashKind.Item, 500, 0, 0, CacheDisagreements: 2)).Ok);
    }

    [Fact]
    public void APowerLossIsCheckedAgainstThePowerLossPromise()
    {
        var kv = new RowFacts(CrashKind.KeyValue, 500, Lost: 20, Stale: 3);
        Assert.True(Judge("redis-persistent", "power-loss", kv).Ok); // powerLoss: window
        Assert.False(Judge("redis-persistent", "db-kill", kv).Ok); // processCrash: nothing
        Assert.False(Judge("postgres", "power-loss", kv).Ok); // powerLoss: nothing
    }

    [Fact]
    public void ARunWithoutAcknowledgementsOrWhoseApiNeverCameBackFailsWhateverThePromise()
    {
        Assert.Contains("no write was acknowledged", Judge("redis-rdb", "db-kill", new RowFacts(CrashKind.Queue, 0, 0, 0)).Problems);
        Assert.Contains("the API did not answer again after the fault", Judge("redis-rdb", "db-kill", new RowFacts(CrashKind.Queue, 10, 0, 0, ApiCameBack: false)).Problems);
        Assert.Contains("2 acknowledged keys could not be read back", Judge("redis-cluster", "power-loss", new RowFacts(CrashKind.KeyValue, 10, 0, 0, Unverified: 2)).Problems);
    }

    [Fact]
    public void AFaultThatDidNotHappenProvesNothing()
    {
        Assert.Contains("the fault command failed (exit code 1)", Judge("postgres", "power-loss", new RowFacts(CrashKind.Author, 10, 0, 0, FaultExitCode: 1)).Problems);
        Assert.True(Judge("postgres", "db-stop", new RowFacts(CrashKind.Author, 10, 0, 0, FaultExitCode: null)).Ok); // still running at the read-back
    }
}
