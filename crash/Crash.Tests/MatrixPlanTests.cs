using Crash.Matrix;
using Harness.CommandLine;


namespace Crash.Tests;

public sealed class MatrixPlanTests
{
    private static IReadOnlyList<MatrixRow> Plan(string[] kinds, string[]? faults = null, string[]? storages = null) =>
        MatrixPlan.Build(CatalogueFixture.Load(), storages ?? [], kinds, faults ?? ["db-kill"]);

    private static string[] Names(IEnumerable<MatrixRow> rows) => [.. rows.Select(r => r.Storage.Name).Distinct()];

    [Fact]
    public void TheDefaultKindsRunOnTheArchitecturesServingAuthorsOrItems() =>
        Assert.Equal(["postgres", "postgres-redis-cache", "postgres-redis-persistent", "tarantool-memtx", "tarantool-vinyl"], Names(Plan(["author", "item"])));

    [Fact]
    public void QueuesAndKeyValueStoresComeFromWhatTheCatalogueSaysTheyServe()
    {
        Assert.Equal(["beanstalkd", "postgres", "redis-aof", "redis-rdb", "redis-sentinel", "tarantool-memtx", "tarantool-vinyl"], Names(Plan(["queue"])));
        Assert.Equal(["postgres", "redis-cluster", "redis-persistent", "redis-sentinel", "tarantool-memtx", "tarantool-vinyl"], Names(Plan(["kv"])));
    }

    [Fact]
    public void AFailoverFaultRunsOnlyOnReplicatedArchitecturesAndIsRepeated()
    {
        var rows = MatrixPlan.Build(CatalogueFixture.Load(), [], ["kv"], ["db-kill", "primary-kill"], failoverRepeats: 3);

        Assert.Equal(["redis-sentinel kv primary-kill #1", "redis-sentinel kv primary-kill #2", "redis-sentinel kv primary-kill #3"],
            rows.Where(r => r.Fault.Name == "primary-kill").Select(r => r.Label));
        Assert.Equal("redis-sentinel-kv-primary-kill-2.json", rows.Single(r => r.Label.EndsWith("#2")).FileName);
        // Other faults keep one run and their plain names.
        Assert.Equal("redis-sentinel kv db-kill", rows.Single(r => r.Storage.Name == "redis-sentinel" && r.Fault.Name == "db-kill").Label);
        Assert.Equal(6, rows.Count(r => r.Fault.Name == "db-kill"));
    }

    [Fact]
    public void OnlyKeepsTheRowsItNamesWithTheirRepetitionsAndRefusesOneTheMatrixDoesNotMake()
    {
        // Faults that differ by architecture in one matrix: redis-sentinel's primary cut off, postgres killed.
        var rows = MatrixPlan.Build(CatalogueFixture.Load(), ["postgres", "redis-sentinel"], ["kv", "queue"], ["db-kill", "primary-partition"], failoverRepeats: 2,
            only: ["redis-sentinel kv primary-partition", "postgres queue db-kill"]);
        Assert.Equal(["postgres queue db-kill", "redis-sentinel kv primary-partition #1", "redis-sentinel kv primary-partition #2"], rows.Select(r => r.Label));

        foreach (var wrong in new[] { "postgres kv primary-partition", "redis-sentinel kv", "nobody kv db-kill" })
            Assert.Contains("--only", Assert.Throws<InputException>(() => MatrixPlan.Build(CatalogueFixture.Load(), ["postgres", "redis-sentinel"], ["kv"],
                ["db-kill", "primary-partition"], only: [wrong])).Message);
    }

    [Fact]
    public void APowerLossIsRepeatedOnAReplicatedArchitectureOnlyWhereItCutsEveryNodeAtOnce()
    {
        var rows = MatrixPlan.Build(CatalogueFixture.Load(), ["redis-sentinel", "redis-persistent"], ["kv"], ["power-loss"], failoverRepeats: 3);

        Assert.Equal(["redis-sentinel kv power-loss #1", "redis-sentinel kv power-loss #2", "redis-sentinel kv power-loss #3"],
            rows.Where(r => r.Storage.Name == "redis-sentinel").Select(r => r.Label));
        Assert.Equal("redis-persistent kv power-loss", rows.Single(r => r.Storage.Name == "redis-persistent").Label);
    }

    [Fact]
    public void AFailoverStopOutlastsThreeDetectionsAndOtherStopsKeepTheirSeconds()
    {
        var sentinel = CatalogueFixture.Entry("redis-sentinel"); // detectionMs 2000
        Assert.Equal(6, Faults.Find("primary-stop")!.StopSeconds(sentinel, 3));
        Assert.Equal(10, Faults.Find("primary-partition")!.StopSeconds(sentinel, 10));
        Assert.Equal(3, Faults.Find("db-stop")!.StopSeconds(sentinel, 3));
    }

    [Fact]
    public void AFailoverFaultOnArchitecturesThatAreNotReplicatedIsNothingToRun()
    {
        var error = Assert.Throws<InputException>(() => Plan(["kv"], ["primary-stop"], ["postgres", "redis-cluster"]));
        Assert.Contains("primary-stop fails over a primary, and none of postgres, redis-cluster is replicated", error.Message);
        Assert.Throws<InputException>(() => MatrixPlan.Build(CatalogueFixture.Load(), [], ["kv"], ["primary-kill"], failoverRepeats: 0));
    }

    [Fact]
    public void QueueRowsOnBothReadPathsStartFromAnEmptyQueueAndOtherRowsLeaveTheirStoreAlone()
    {
        var rows = MatrixPlan.Build(CatalogueFixture.Load(), ["redis-sentinel"], ["queue", "queue-leased", "kv"], ["db-kill"]);

        Assert.Equal(["redis-sentinel queue db-kill", "redis-sentinel queue-leased db-kill"], rows.Where(r => r.StartsFromAnEmptyQueue).Select(r => r.Label));
        Assert.Equal(["redis-sentinel kv db-kill"], rows.Where(r => !r.StartsFromAnEmptyQueue).Select(r => r.Label));
    }

    [Fact]
    public void AnArchitectureServingOnlyOneKindGetsOnlyThatKindsRows()
    {
        var rows = Plan(["author", "item"], ["db-kill", "db-stop"], ["postgres-redis-persistent"]);
        Assert.Equal(["postgres-redis-persistent item db-kill", "postgres-redis-persistent item db-stop"], rows.Select(r => r.Label));
    }

    [Fact]
    public void AServerFaultHitsEveryServerOfTheCatalogueAndTheServiceKillNone()
    {
        var rows = Plan(["item"], ["db-kill", "service-kill"], ["postgres-redis-persistent"]);
        Assert.Equal(["redis-persistent", "postgres"], rows[0].Fault.Targets(rows[0].Storage));
        Assert.Empty(rows[1].Fault.Targets(rows[1].Storage));
    }

    [Fact]
    public void ACacheIsReadAgainstTheArchitectureOnTheSameServersWithoutIt()
    {
        Assert.Equal("postgres", Plan(["author"], storages: ["postgres-redis-cache"]).Single().TruthStorage);
        Assert.Null(Plan(["author"], storages: ["postgres"]).Single().TruthStorage);
    }

    [Fact]
    public void AnAliasNamesItsArchitecture() =>
        Assert.Equal("redis-rdb", Plan(["queue"], storages: ["redis_rdb"]).Single().Storage.Name);

    [Fact]
    public void PowerLossIsInTheVocabularyAndTestsThePowerLossPromise()
    {
        var row = Plan(["queue"], ["power-loss", "db-kill"], ["redis-aof"]);
        Assert.Equal(("window", "nothing"), (row[0].Fault.Promised(row[0].Storage), row[1].Fault.Promised(row[1].Storage)));
        Assert.Equal(Promise.PowerLoss, row[0].Fault.Promise);
    }

    [Theory]
    [InlineData("nosuch", "queue", "db-kill", "--storage: unknown architecture 'nosuch'")]
    [InlineData("", "queues", "db-kill", "--kind: unknown kind 'queues' (author, item, queue, queue-leased, kv)")]
    [InlineData("", "queue", "db-crash", "--fault: unknown fault 'db-crash' (db-kill, service-kill, db-stop, power-loss, primary-kill, primary-partition, primary-partition-oneway, primary-stop)")]
    [InlineData("beanstalkd", "author", "db-kill", "nothing to run: none of beanstalkd serves author")]
    public void BadInputIsRefusedNamingIt(string storage, string kind, string fault, string message) =>
        Assert.StartsWith(message, Assert.Throws<InputException>(() => Plan([kind], [fault], storage.Length == 0 ? [] : [storage])).Message);
}
