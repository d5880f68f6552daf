using Harness.Catalogue;
using Lab.Bench;
using Harness.CommandLine;
using Lab.Report;
using Tank.Ammo;
using IntegrationService.Http;

namespace Lab.Tests.Bench;

/// <summary>The bench's matrix follows from the catalogue alone: what each architecture serves, its servers, whether it is shardable.</summary>
public sealed class BenchMatrixTests
{
    private static BenchMatrix Build(string? storages = null, string? scenarios = null, int cluster = 0, bool crossCheck = false) =>
        BenchMatrix.Build(CatalogueFixture.Entries, storages?.Split(','), scenarios?.Split(','), cluster, crossCheck);

    private static string[] Cells(BenchMatrix matrix) => matrix.Cells.Select(c => $"{c.Scenario.Name()}@{c.Storage}").ToArray();

    [Theory]
    [InlineData("author-write", "Author")]
    [InlineData("author-mixed", "Author")]
    [InlineData("item-read", "Item")]
    [InlineData("queue-mixed", "Queue")]
    [InlineData("kv-get", "KeyValue")]
    public void AScenariosApiIsItsPrefix(string scenario, string api) => Assert.Equal(api, Scenarios.Parse(scenario).Api());

    [Fact]
    public void AnUnknownScenarioIsBadInput() => Assert.Throws<InputException>(() => Build(scenarios: "blob-read"));

    [Fact]
    public void EachScenarioRunsOnEveryArchitectureServingItsApiInCatalogueOrder()
    {
        var matrix = Build(scenarios: "author-read,item-write,queue-read,kv-put");
        matrix = matrix with { Cells = matrix.Cells.Where(c => c.Distribution is null).ToList() }; // the zipfian cache pair has its own test
        Assert.Equal(
        [
            "author-read@postgres", "author-read@postgres-redis-cache", "author-read@tarantool-memtx", "author-read@tarantool-vinyl",
            "item-write@postgres", "item-write@postgres-redis-cache", "item-write@postgres-redis-persistent", "item-write@tarantool-memtx", "item-write@tarantool-vinyl",
            "queue-read@beanstalkd", "queue-read@postgres", "queue-read@redis-aof", "queue-read@redis-rdb", "queue-read@tarantool-memtx", "queue-read@tarantool-vinyl",
            "kv-put@postgres", "kv-put@redis-cluster", "kv-put@redis-persistent", "kv-put@tarantool-memtx", "kv-put@tarantool-vinyl",
        ], Cells(matrix));
    }

    [Fact]
    public void TheProfilesLeftOutCellsLeaveOnlyTheDefaultRunAndComeBackWhenNamed()
    {
        string[] leaveOut = ["postgres-redis-cache author-write", "redis_rdb queue-write"];
        var left = Cells(BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, leaveOut: leaveOut));
        Assert.Equal(Cells(Build()).Except(["author-write@postgres-redis-cache", "queue-write@redis-rdb"]), left);
        Assert.Contains("queue-write@redis-rdb", Cells(BenchMatrix.Build(CatalogueFixture.Entries, null, ["queue-write"], 0, false, leaveOut: leaveOut)));
        Assert.Contains("author-write@postgres-redis-cache", Cells(BenchMatrix.Build(CatalogueFixture.Entries, ["postgres-redis-cache"], null, 0, false, leaveOut: leaveOut)));
        foreach (var wrong in new[] { "Redis RDB! queue-write", "redis-rdb blob-read", "redis-rdb", "redis-rdb queue-write extra" })
            Assert.Contains("leave_out", Assert.Throws<InputException>(() => BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, leaveOut: [wrong])).Message);
    }

    [Fact]
    public void TheProfilesAddedCellsJoinOnlyTheDefaultRunInScenarioThenCatalogueOrder()
    {
        // The fixture has no broker; a queue of the catalogue stands for one.
        string[] alsoRun = ["redis_rdb queue-read", "postgres queue-read"];
        var added = Cells(BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, alsoRun: alsoRun));
        var expected = Build().Cells.Concat([new BenchCell(Scenario.QueueRead, "postgres"), new BenchCell(Scenario.QueueRead, "redis-rdb")])
            .OrderBy(c => c.Scenario).ThenBy(c => CatalogueFixture.Entries.ToList().FindIndex(a => a.Name == c.Storage))
            .Select(c => $"{c.Scenario.Name()}@{c.Storage}");
        Assert.Equal(expected, added);
        Assert.Equal(Cells(Build()).Length + 2, added.Length);
        // Named runs measure what they name: --scenario and --storage leave the profile's cells out.
        Assert.Equal(Cells(Build(scenarios: "queue-write")), Cells(BenchMatrix.Build(CatalogueFixture.Entries, null, ["queue-write"], 0, false, alsoRun: alsoRun)));
        Assert.Equal(Cells(Build(storages: "postgres")), Cells(BenchMatrix.Build(CatalogueFixture.Entries, ["postgres"], null, 0, false, alsoRun: alsoRun)));
        // A cell the default run already has is not measured twice; one leave_out names stays out.
        Assert.Equal(Cells(Build()), Cells(BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, alsoRun: ["postgres author-read"])));
        Assert.Equal(Cells(Build()), Cells(BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, leaveOut: ["postgres queue-read"], alsoRun: ["postgres queue-read"])));
    }

    [Fact]
    public void AnAddedCellMustBeACellTheArchitectureServesOrOfAnArchitectureThisDeploymentDoesNotOffer()
    {
        foreach (var wrong in new[] { "Redis RDB! queue-read", "redis-rdb blob-read", "redis-rdb", "redis-rdb queue-read extra" })
            Assert.Contains("also_run", Assert.Throws<InputException>(() => BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, alsoRun: [wrong])).Message);
        Assert.Contains("also_run: redis-rdb does not serve author-read",
            Assert.Throws<InputException>(() => BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, alsoRun: ["redis-rdb author-read"])).Message);
        var matrix = BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, alsoRun: ["rabbitmq queue-read"]);
        Assert.Equal(["rabbitmq queue-read"], matrix.AlsoRunAbsent);
        Assert.Equal(Cells(Build()), Cells(matrix));
    }

    [Fact]
    public void ALeftOutCellOfAnArchitectureThisDeploymentDoesNotOfferIsNamedAndLeavesTheRestAsItWas()
    {
        // The profile is the project's; a deployment without nats-r3 (AWS) runs it all the same.
        var matrix = BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, leaveOut: ["nats-r3 queue-write", "redis_rdb queue-write"]);
        Assert.Equal(["nats-r3 queue-write"], matrix.LeaveOutAbsent);
        Assert.Equal(Cells(Build()).Except(["queue-write@redis-rdb"]), Cells(matrix));
        Assert.Empty(BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, false, leaveOut: ["redis_rdb queue-write"]).LeaveOutAbsent);
    }

    [Fact]
    public void TheDefaultRunIsEveryScenarioButTheKeyValueAndMixedOnesInTheirOrder()
    {
        var matrix = Build();
        Assert.Equal(["author-write", "author-read", "queue-write"],
            matrix.Cells.Select(c => c.Scenario.Name()).Distinct());
        // No items, no queue reads and no zipfian pair, and tarantool-vinyl's writes and author
        // reads left to tarantool-memtx's (the same server, log and durability).
        Assert.Equal(4 * 2 + 6 - 3, matrix.Cells.Count);
        Assert.DoesNotContain("author-write@tarantool-vinyl", Cells(matrix));
        Assert.DoesNotContain("queue-write@tarantool-vinyl", Cells(matrix));
        Assert.DoesNotContain("author-read@tarantool-vinyl", Cells(matrix));
        Assert.DoesNotContain(matrix.Cells, c => c.Scenario == Scenario.QueueRead || c.Distribution is not null);
        Assert.Contains("queue-read@tarantool-vinyl", Cells(Build(scenarios: "queue-read")));
        Assert.Contains("author-read@tarantool-memtx", Cells(matrix));
        Assert.Contains("queue-write@tarantool-memtx", Cells(matrix));
        Assert.DoesNotContain(matrix.Cells, c => c.Scenario.Api() == StorageApi.Item);
        // Asked for by name, items run on every architecture that serves them.
        Assert.Contains("item-read@postgres-redis-persistent", Cells(Build(scenarios: "item-read,item-write")));
        Assert.Empty(matrix.ClusterStores);
        Assert.Empty(matrix.CrossChecks);
    }

    [Fact]
    public void AWriteRepeatedOnTheSameServerRunsWhenAskedForOrAlone()
    {
        Assert.Contains("author-write@tarantool-vinyl", Cells(Build(scenarios: "author-write")));
        Assert.Contains("queue-write@tarantool-vinyl", Cells(Build(storages: "tarantool-vinyl")));
        Assert.Contains("author-read@tarantool-vinyl", Cells(Build(scenarios: "author-read")));
        Assert.Contains("author-read@tarantool-vinyl", Cells(Build(storages: "tarantool-vinyl")));
        // Different servers (redis-aof, redis-rdb) or a cache (postgres-redis-cache) are not repeats.
        Assert.Contains("queue-write@redis-rdb", Cells(Build()));
        Assert.Contains("author-write@postgres-redis-cache", Cells(Build()));
    }

    [Fact]
    public void ItemsAskedForByNameRunOnEveryArchitectureServingThem()
    {
        Assert.Equal(5, Build(scenarios: "item-read").Cells.Count);
        Assert.Equal(2, Build(storages: "postgres", scenarios: "author-read,item-read").Cells.Count);
        Assert.DoesNotContain(Build(storages: "postgres").Cells, c => c.Scenario.Api() == StorageApi.Item);
    }

    [Fact]
    public void QuickMeasuresAnAuthorReadAndAQueueWriteOnEveryServerServingThem()
    {
        var matrix = BenchMatrix.Build(CatalogueFixture.Entries, null, null, 0, crossCheck: false, quick: true);
        Assert.Equal(["author-read", "queue-write"], matrix.Cells.Select(c => c.Scenario.Name()).Distinct());
        Assert.Equal(4 + 6 - 2, matrix.Cells.Count); // tarantool-vinyl's author read and queue write are tarantool-memtx's
        Assert.Equal(["author-read"], BenchMatrix.Build(CatalogueFixture.Entries, null, ["author-read"], 0, false, quick: true).Cells.Select(c => c.Scenario.Name()).Distinct());
    }

    [Fact]
    public void AnArchitectureNewToTheCatalogueIsMeasuredWithoutNamingIt()
    {
        var catalogue = CatalogueFixture.Entries.Append(Architecture.Of("nats-jetstream", ["Queue"], ["nats"], "fsync always")).ToList();
        var matrix = BenchMatrix.Build(catalogue, null, ["queue-write"], 0, crossCheck: false);
        Assert.Contains(matrix.Cells, c => c.Storage == "nats-jetstream");
        Assert.Contains("nats", matrix.CpuServers);
    }

    [Fact]
    public void StoragesMayBeNamedByAliasAndKeepTheCataloguesOrder()
    {
        var matrix = Build(storages: "redis_rdb,beanstalkd", scenarios: "queue-write,author-read");
        Assert.Equal(["queue-write@beanstalkd", "queue-write@redis-rdb"], Cells(matrix));
    }

    [Fact]
    public void CpuIsAccountedForTheServersAndCachesOfTheArchitecturesInTheRun()
    {
        Assert.Equal(["postgres", "redis-cache"], Build(storages: "postgres-redis-cache", scenarios: "author-read").CpuServers);
        Assert.Equal(["redis-persistent", "postgres"], Build(storages: "postgres-redis-persistent", scenarios: "item-read").CpuServers);
        Assert.Equal(["beanstalkd", "postgres", "redis-aof", "redis-rdb", "tarantool"], Build(scenarios: "queue-read").CpuServers);
    }

    [Fact]
    public void TheItemDataSetIsSeededIntoTheServersOfTheItemCellsOnly()
    {
        Assert.Empty(Build(storages: "postgres,tarantool-memtx", scenarios: "author-read").SeedBackends(CatalogueFixture.Entries));
        Assert.Equal(["redis-persistent", "postgres"], Build(storages: "postgres-redis-persistent", scenarios: "item-read").SeedBackends(CatalogueFixture.Entries));
        Assert.Equal(["tarantool"], Build(storages: "tarantool-memtx", scenarios: "item-read,author-read").SeedBackends(CatalogueFixture.Entries));
        Assert.Equal(["postgres", "redis-cache"], Build(storages: "postgres,postgres-redis-cache", scenarios: "author-read,item-write").SeedBackends(CatalogueFixture.Entries));
    }

    [Fact]
    public void TheServiceIsReadyWhenTheRunsOwnArchitecturesAre()
    {
        Assert.Equal(["--Storage:ReadyArchitectures=postgres,tarantool-memtx"], Build(storages: "tarantool-memtx,postgres", scenarios: "author-read").ServiceArguments);
        Assert.Equal(["--Storage:ReadyArchitectures=beanstalkd,redis-rdb"], Build(storages: "redis_rdb,beanstalkd", scenarios: "queue-write").ServiceArguments);
    }

    [Fact]
    public void AClusterRunsTheKeyValueScenariosOnTheShardableStores()
    {
        var matrix = Build(cluster: 3);
        Assert.Equal([Scenario.KvPut, Scenario.KvGet], matrix.ClusterScenarios);
        Assert.Equal(["postgres", "redis-persistent", "tarantool-memtx", "tarantool-vinyl"], matrix.ClusterStores);
        // The single node's key-value runs come first, as script/bench always ran them.
        Assert.Equal(10, matrix.Cells.Count);
        var all = matrix.AllCells(3).ToList();
        Assert.Equal(18, all.Count);
        Assert.Equal(new BenchCell(Scenario.KvPut, "postgres", 3), all[10]);
        Assert.Equal(Path.Combine("runs", "postgres-x3", "kv-put"), all[10].RelativeDir);
    }

    [Fact]
    public void AClusterWithoutKeyValueScenariosRunsNoCluster() =>
        Assert.Empty(Build(scenarios: "author-read", cluster: 3).ClusterStores);

    [Fact]
    public void TheCrossCheckReadsAuthorsWhereThereAreAuthorsElseItems()
    {
        var checks = Build(crossCheck: true).CrossChecks;
        Assert.Equal(["postgres", "postgres-redis-cache", "postgres-redis-persistent", "tarantool-memtx", "tarantool-vinyl"], checks.Select(c => c.Storage));
        Assert.All(checks.Where(c => c.Storage != "postgres-redis-persistent"), c => Assert.Equal((Scenario.AuthorRead, true), (c.Scenario, c.NeedsAuthors)));
        var items = checks.Single(c => c.Storage == "postgres-redis-persistent");
        Assert.Equal((Scenario.ItemRead, "/item/{id}/locations?storage=postgres-redis-persistent", false), (items.Scenario, items.Template, items.NeedsAuthors));
        Assert.Equal("/Author/Get?id={id}&storage=postgres", checks[0].Template);
    }

    [Theory]
    [InlineData("mongodb", null, "--storage: unknown architecture 'mongodb' (known: beanstalkd, postgres,")]
    [InlineData(null, "author-delete", "--scenario: unknown scenario 'author-delete'")]
    [InlineData("beanstalkd", "author-read", "no architecture serves the selected scenarios")]
    public void BadSelectionsAreBadInput(string? storages, string? scenarios, string message) =>
        Assert.StartsWith(message, Assert.Throws<InputException>(() => Build(storages, scenarios)).Message);

    [Fact]
    public void AuthorReadAskedForByNameAlsoReadsWithZipfianKeysWhereACacheSitsAndWhereTheSameServersHaveNone()
    {
        var zipfian = BenchMatrix.Build(CatalogueFixture.Entries, null, ["author-read"], 0, false).Cells.Where(c => c.Distribution == "zipfian").ToList();

        Assert.Equal(["author-read-zipfian@postgres", "author-read-zipfian@postgres-redis-cache"], zipfian.Select(c => $"{c.Name}@{c.Storage}"));
        Assert.Equal(Path.Combine("runs", "postgres", "author-read-zipfian"), zipfian[0].RelativeDir);
        Assert.Equal(2, BenchMatrix.Build(CatalogueFixture.Entries, null, ["author-read"], 0, false).Cells.Count(c => c.Distribution == "zipfian"));
        Assert.DoesNotContain(BenchMatrix.Build(CatalogueFixture.Entries, null, ["author-read"], 0, false, quick: true).Cells, c => c.Distribution == "zipfian");
        Assert.DoesNotContain(BenchMatrix.Build(CatalogueFixture.Entries, null, ["queue-write"], 0, false).Cells, c => c.Distribution == "zipfian");
    }

    [Fact]
    public void AWorkloadRunsOnEveryArchitectureWithAuthorsOrKeyValuePairs()
    {
        var cells = BenchMatrix.Build(CatalogueFixture.Entries, ["postgres", "redis-aof"], null, 0, false, workload: "ycsb-b", distribution: "zipfian").Cells;

        Assert.Equal(["author-ycsb-b-zipfian@postgres", "kv-ycsb-b-zipfian@postgres"], cells.Select(c => $"{c.Name}@{c.Storage}"));
        Assert.All(cells, c => Assert.Equal("ycsb-b", c.Workload));
    }

    [Fact]
    public void ADistributionAppliesToTheScenariosThatPickKeysOnly()
    {
        var cells = BenchMatrix.Build(CatalogueFixture.Entries, ["postgres"], ["author-read", "author-write"], 0, false, distribution: "hotspot").Cells;

        Assert.Equal(["author-write", "author-read-hotspot"], cells.Select(c => c.Name).OrderBy(n => n.Length));
    }

    [Fact]
    public void TheRunRecordsTheCommandLineThatAskedForIt()
    {
        var options = new BenchOptions { Scenarios = ["author-read", "queue-write"], CrossCheck = true, Repeat = 3, ServiceDll = "s.dll", Root = "." };

        Assert.Equal("script/bench --scenario author-read,queue-write --repeat 3 --crosscheck", BenchReport.Command(options));
        Assert.Equal("script/bench --quick", BenchReport.Command(new BenchOptions { Quick = true, ServiceDll = "s.dll", Root = "." }));
        var isolated = new BenchOptions { Pin = true, Throttles = new Dictionary<string, double> { ["tarantool"] = 0.25 }, ServiceDll = "s.dll", Root = "." };
        Assert.Equal("script/bench --pin --throttle tarantool=0.25", BenchReport.Command(isolated));
    }
}
