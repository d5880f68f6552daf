using IntegrationService.Storage;
using Crash.Check;
using Crash.Matrix;
using Crash.Queue;

namespace Crash.Tests;

public sealed class DurabilityCheckTests
{
    private static RowCheck Judge(string storage, string fault, RowFacts facts) =>
        DurabilityCheck.Judge(facts, Faults.Find(fault)!, CatalogueFixture.Entry(storage));

    private static RowFacts Queue(long lost, long readsInDoubt = 0, long duplicated = 0, long unexpected = 0, ReadPath path = ReadPath.AtMostOnce) =>
        new(CrashKind.Queue, Acked: 1000, Lost: lost, Stale: 0, Duplicated: duplicated, Unexpected: unexpected, ReadsInDoubt: readsInDoubt, ReadPath: path);

    /// <summary>A queue run whose oldest message still on the queue at the fault was <paramref name="heldMs"/> old, losing messages of these ages.</summary>
    private static RowFacts QueueAged(long heldMs, long readsInDoubt, params long[] lostAgesMs) =>
        Queue(lostAgesMs.Length, readsInDoubt) with { LostAgesMs = lostAgesMs, OldestHeldAgeMs = heldMs };

    /// <summary>A key-value run of writes acknowledged from <paramref name="heldMs"/> before the fault on, losing keys whose gone writes were of these ages.</summary>
    private static RowFacts KeysAged(long heldMs, params long[] lostAgesMs) =>
        new(CrashKind.KeyValue, 500, Lost: lostAgesMs.Length, Stale: 0, LostAgesMs: lostAgesMs, OldestHeldAgeMs: heldMs);

    [Fact]
    public void AnAsynchronousFailoverMayLoseAcknowledgedWritesAndSaysHowMany()
    {
        var check = Judge("redis-sentinel", "primary-stop", new RowFacts(CrashKind.KeyValue, 1300, Lost: 590, Stale: 90));
        Assert.True(check.Ok);
        Assert.Equal(("failoverLoss", "unreplicated"), (check.Promise, check.Promised));
        Assert.Equal(["lost 590, 90 stale (failoverLoss: unreplicated)"], check.Notes);
    }

    [Fact]
    public void AFailoverThatLosesNothingItMayNotStillFailsOnAValueNeverWritten()
    {
        var check = Judge("redis-sentinel", "primary-kill", new RowFacts(CrashKind.KeyValue, 1300, Lost: 0, Stale: 0, Changed: 2));
        Assert.False(check.Ok);
        Assert.Contains("2 keys hold a value never written or refused", check.Problems);
    }

    [Fact]
    public void AFailoverPromisingNothingFailsOnOneLostWrite()
    {
        var entry = CatalogueFixture.Entry("redis-sentinel");
        var synchronous = entry with { Replication = entry.Replication! with { Mode = "synchronous", FailoverLoss = "nothing" } };
        var check = DurabilityCheck.Judge(new RowFacts(CrashKind.KeyValue, 1300, Lost: 1, Stale: 0), Faults.Find("primary-kill")!, synchronous);
        Assert.False(check.Ok);
        Assert.Equal(["1 acknowledged writes lost (failoverLoss: nothing)"], check.Problems);
    }

    [Fact]
    public void ASnapshotQueueMayLoseWhatItsStatedIntervalHeldAndRedeliverOnAKill()
    {
        var check = Judge("redis-rdb", "db-kill", QueueAged(6000, 2, 900, 400, 10) with { Duplicated = 40 });
        Assert.True(check.Ok);
        Assert.Equal(("processCrash", "since-snapshot", (long?)2, true, (long?)1000), (check.Promise, check.Promised, check.AllowedLost, check.DuplicatesAllowed, check.WindowMs));
        Assert.Equal(["3 messages lost, all within the 1000 ms window (the oldest 900 ms before the fault)"], check.Notes);
    }

    [Fact]
    public void ASnapshotQueueThatLosesMoreThanItsStatedIntervalFails() =>
        Assert.Contains("1 messages acknowledged more than the 1000 ms window before the fault lost (the oldest 2500 ms before it), more than the 0 reads in doubt (processCrash: since-snapshot)",
            Judge("redis-rdb", "db-kill", QueueAged(6000, 0, 2500, 300)).Problems);

    [Fact]
    public void AWindowRowThatLosesAWriteAcknowledgedBeforeItsWindowFails()
    {
        var check = Judge("redis-persistent", "power-loss", KeysAged(6000, 1500, 200));
        Assert.False(check.Ok);
        Assert.Equal(["1 keys lost or stale by writes acknowledged more than the 1000 ms window before the fault (the oldest 1500 ms before it) (powerLoss: window)"], check.Problems);
        Assert.Equal((1000L, 1L), (check.WindowMs!.Value, check.LostBeyondWindow!.Value));
    }

    [Fact]
    public void AKillIsCheckedAgainstTheKillsOwnWindowAndAPowerLossAgainstItsLongerOne()
    {
        // nats-jetstream's facts: a kill may lose its last second, a power loss its last two minutes.
        var aof = CatalogueFixture.Entry("redis-aof");
        var nats = aof with { Durability = aof.Durability with { ProcessCrash = Loss.Window, LossWindowMs = 120_000, ProcessCrashWindowMs = 1000 } };
        var kill = DurabilityCheck.Judge(QueueAged(6000, 0, 2500, 300), Faults.Find("db-kill")!, nats);
        Assert.False(kill.Ok);
        Assert.Equal((1000L, 1L), (kill.WindowMs!.Value, kill.LostBeyondWindow!.Value));
        var power = DurabilityCheck.Judge(QueueAged(6000, 0, 2500, 300), Faults.Find("power-loss")!, nats);
        Assert.True(power.Ok);
        Assert.Equal((120_000L, "no write older than the window"), (power.WindowMs!.Value, power.NotChecked));
    }

    [Fact]
    public void AWindowRowThatLosesOnlyWritesYoungerThanItsWindowPassesAndSaysSo()
    {
        var check = Judge("redis-persistent", "power-loss", KeysAged(6000, 900, 200));
        Assert.True(check.Ok);
        Assert.Equal(0, check.LostBeyondWindow);
        Assert.Null(check.NotChecked);
        Assert.Equal("2 keys lost or stale, all within the 1000 ms window (the oldest 900 ms before the fault)", MatrixSummary.CheckCell(check));
    }

    [Fact]
    public void AWindowRowTooShortToHoldAWriteOlderThanTheWindowIsNotChecked()
    {
        // tarantool's 30-s window, the run's first write acknowledged 5.8 s before the fault.
        var check = Judge("tarantool-memtx", "power-loss", KeysAged(5800, 5800, 100));
        Assert.True(check.Ok);
        Assert.Equal("no write older than the window", check.NotChecked);
        Assert.Null(check.LostBeyondWindow);
        Assert.StartsWith("not checked: no write older than the window; 2 keys lost or stale, all within the 30000 ms window", MatrixSummary.CheckCell(check));
    }

    [Fact]
    public void AQueuesOldMessagesTakenByReadsInDoubtOnTheAtMostOnceReadPathPassOnAWindowButAreShown()
    {
        var check = Judge("redis-aof", "power-loss", QueueAged(8000, 2, 4000, 3000, 500));
        Assert.True(check.Ok);
        Assert.Equal(["3 messages lost: 1 within the 1000 ms window, 2 older (at-most-once read path: 2 reads in doubt)"], check.Notes);
        Assert.False(Judge("redis-aof", "power-loss", QueueAged(8000, 1, 4000, 3000, 500)).Ok);
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
    public void OnlyTheLeasedReadMayDuplicateWhenTheQueueKeepsEverything()
    {
        Assert.True(Judge("beanstalkd", "service-kill", Queue(lost: 0, duplicated: 5, path: ReadPath.AtLeastOnce)).Ok);
        Assert.Contains("5 messages delivered more than once (at-most-once, processCrash: nothing)", Judge("beanstalkd", "service-kill", Queue(lost: 0, duplicated: 5)).Problems);
        Assert.Contains("5 messages delivered more than once (at-most-once, processCrash: nothing)", Judge("redis-aof", "service-kill", Queue(lost: 0, duplicated: 5)).Problems);
    }

    [Fact]
    public void AQuorumQueueAtMostOnceUntilFailoverMayRedeliverOnAFailoverOnly()
    {
        // nats-r3 as the catalogue states it: a failover loses nothing, and GET /read is at-most-once until a failover.
        var entry = CatalogueFixture.Entry("redis-sentinel");
        var quorum = entry with
        {
            Replication = entry.Replication! with { Mode = "quorum", FailoverLoss = "nothing" },
            Delivery = new(QueueDelivery.AtMostOnceUntilFailover, QueueDelivery.AtLeastOnce),
        };
        Assert.True(DurabilityCheck.Judge(Queue(lost: 0, duplicated: 62), Faults.Find("primary-partition")!, quorum).Ok);
        Assert.False(DurabilityCheck.Judge(Queue(lost: 1, duplicated: 62), Faults.Find("primary-partition")!, quorum).Ok);
        // The same redelivery on a kill of every node (no failover) fails the row.
        Assert.Contains("62 messages delivered more than once (at-most-once-until-failover, processCrash: nothing)",
            DurabilityCheck.Judge(Queue(lost: 0, duplicated: 62), Faults.Find("db-kill")!, quorum).Problems);
        // Stated at-most-once, the same redelivery fails the row.
        var atMostOnce = quorum with { Delivery = QueueDeliveryPaths.OfEveryQueue };
        Assert.Contains("62 messages delivered more than once (at-most-once, failoverLoss: nothing)",
            DurabilityCheck.Judge(Queue(lost: 0, duplicated: 62), Faults.Find("primary-partition")!, atMostOnce).Problems);
    }

    [Fact]
    public void AtMostOnceUntilFailoverAllowsADuplicateOnlyWhereItsFirstDeliveryFellInTheFailover()
    {
        var entry = CatalogueFixture.Entry("redis-sentinel"); // detectionMs 2000
        var quorum = entry with
        {
            Replication = entry.Replication! with { Mode = "quorum", FailoverLoss = "nothing" },
            Delivery = new(QueueDelivery.AtMostOnceUntilFailover, QueueDelivery.AtLeastOnce),
        };
        var partition = Faults.Find("primary-partition")!;
        // The fault from 10 s to 25 s, reads timing out after 1 s: a duplicate may have been first read from 9 s to 27 s.
        RowFacts Twice(params double[] firstReadsS) => Queue(lost: 0, duplicated: firstReadsS.Length) with { Duplicates = new(firstReadsS, 10, 25, 1) };

        var inside = DurabilityCheck.Judge(Twice(9.2, 14, 26.9), partition, quorum);
        Assert.True(inside.Ok);
        Assert.Equal(["3 delivered more than once, each first read during the failover (9–27 s), as at-most-once-until-failover allows"], inside.Notes);
        // One first read 3 s before the fault, one after the new leader was long in place.
        Assert.Equal(["2 of 3 messages delivered more than once were first read outside the failover (9–27 s): at-most-once-until-failover allows a duplicate only there"],
            DurabilityCheck.Judge(Twice(7, 14, 27.5), partition, quorum).Problems);
        // Not known (a result written before the times were kept): said, not passed in silence.
        Assert.Contains("when they were first read is not known", Assert.Single(DurabilityCheck.Judge(Queue(lost: 0, duplicated: 2), partition, quorum).Notes));
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
        var kv = new RowFacts(CrashKind.KeyValue, 500, Lost: 20, Stale: 3, LostAgesMs: [.. Enumerable.Repeat(400L, 23)], OldestHeldAgeMs: 6000);
        Assert.True(Judge("redis-persistent", "power-loss", kv).Ok); // powerLoss: window, every loss within it
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

    [Fact]
    public void AFaultWhoseTargetWasNeverFoundFailsItsRow()
    {
        // script/services could not name the primary, so nothing was killed and no exit code came back.
        const string error = "'script/services primary rabbitmq-r3' exited 1: error: rabbitmq-r3: no node answers with the queue's leader";
        var facts = new QueueResult { Storage = "rabbitmq-r3", Kind = "queue", Fault = "primary-kill", Acked = 10, ReadBackReadyS = 1, DrainComplete = true, FaultError = error }.Facts();
        var check = Judge("redis-sentinel", "primary-kill", facts with { Kind = CrashKind.KeyValue });
        Assert.False(check.Ok);
        Assert.Equal([$"the fault did not happen: {error}"], check.Problems);
        Assert.True(Judge("redis-sentinel", "primary-kill", facts with { Kind = CrashKind.KeyValue, FaultError = null }).Ok);
    }
}
