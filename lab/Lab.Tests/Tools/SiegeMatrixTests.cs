using Lab.Tools;
using Harness.CommandLine;
using Harness.Catalogue;
using IntegrationService.Http;

namespace Lab.Tests.Tools;

/// <summary>The siege matrix's queues, from a real GET /storages answer (Tools/Samples/storages.json).</summary>
public sealed class SiegeMatrixTests
{
    private static readonly IReadOnlyList<StorageDescription> Catalogue = StorageCatalogue.Parse(Samples.Read("storages.json")).Entries;

    [Fact]
    public void EveryQueueOfTheCatalogueUnderTheStudysNames() =>
        Assert.Equal(["beanstalkd", "postgres", "redis_aof", "redis_rdb", "tarantool-memtx", "tarantool-vinyl"], SiegeMatrix.Queues(Catalogue, null));

    [Fact]
    public void ASelectionIsKeptAsSpelled() =>
        Assert.Equal(["redis-aof", "beanstalkd"], SiegeMatrix.Queues(Catalogue, ["redis-aof", "beanstalkd"]));

    [Fact]
    public void AnArchitectureWithoutAQueueIsRefused()
    {
        var e = Assert.Throws<InputException>(() => SiegeMatrix.Queues(Catalogue, ["postgres-redis-cache"]));
        Assert.StartsWith("--queue: 'postgres-redis-cache' is not a queue of this service (known: beanstalkd, postgres, redis_aof", e.Message);
    }

    [Fact]
    public void AQueueAddedToTheCatalogueJoinsTheMatrix() =>
        Assert.Equal(["nats"], SiegeMatrix.Queues([Architecture.Of("nats", ["Queue"]), Architecture.Of("kv", ["KeyValue"])], null));

    [Fact]
    public void AnAnswerThatIsNotTheCatalogueIsAToolError() =>
        Assert.Throws<CatalogueException>(() => StorageCatalogue.Parse("{\"status\":\"healthy\"}").Entries);

    [Fact]
    public void TheOpenFilesSoftLimitIsRead()
    {
        const string limits = "Limit                     Soft Limit           Hard Limit           Units     \n" +
            "Max cpu time              unlimited            unlimited            seconds   \n" +
            "Max open files            1024                 1048576              files     \n";
        Assert.Equal(1024, OpenFilesLimit.Parse(limits));
        Assert.Equal(long.MaxValue, OpenFilesLimit.Parse(limits.Replace("1024 ", "unlimited ")));
        Assert.Null(OpenFilesLimit.Parse("Max cpu time  unlimited  unlimited  seconds\n"));
        Assert.NotNull(OpenFilesLimit.Current());
    }
}
