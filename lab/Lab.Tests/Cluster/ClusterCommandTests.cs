using Harness.Catalogue;
using Lab.Cluster;
using Tank.Commands;
using Lab.Tests.Bench;
using Harness.CommandLine;
using Lab.Commands;

namespace Lab.Tests.Cluster;

/// <summary>lab cluster's command line (script/cluster's) and what it asks the catalogue; nothing starts.</summary>
public sealed class ClusterCommandTests
{
    private static (string Action, int Nodes, string? Storage, int? Port, string Root) Arguments(params string[] args)
    {
        var parse = LabCli.Parse(["cluster", .. args]);
        Assert.Empty(parse.Errors);
        return ((ClusterCommand)parse.CommandResult.Command).ArgumentsOf(parse);
    }

    private static (int Code, string Error) Run(params string[] args)
    {
        var error = new StringWriter();
        return (LabCli.Run(["cluster", .. args], TextWriter.Null, error), error.ToString());
    }

    [Fact]
    public void UpTakesNodesStorageAndPort() =>
        Assert.Equal(("up", 5, "tarantool-vinyl", 19100, "/repo"), Arguments("up", "--nodes", "5", "--storage", "tarantool-vinyl", "--port", "19100", "--root", "/repo"));

    [Fact]
    public void UpDefaultsToThreeNodesTheCataloguesStorageAndPortFromTheEnvironment() =>
        Assert.Equal(("up", 3, null, null), Arguments("up") is var a ? (a.Action, a.Nodes, a.Storage, a.Port) : default);

    [Theory]
    [InlineData("start")]
    [InlineData("")]
    public void AnUnknownActionIsBadInput(string action) => Assert.Equal(Cli.InputError, Run(action).Code);

    [Theory]
    [InlineData("0")]
    [InlineData("100")]
    [InlineData("three")]
    public void NodesOutsideOneToNinetyNineAreBadInputNamingTheOption(string nodes)
    {
        var (code, error) = Run("up", "--nodes", nodes);
        Assert.Equal(Cli.InputError, code);
        Assert.Contains($"--nodes: '{nodes}'", error);
    }

    [Fact]
    public void APortWithNoRoomForTheNodesIsBadInput()
    {
        var (code, error) = Run("up", "--nodes", "5", "--port", "65533");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("--port: '65533'", error);
    }

    [Theory]
    [InlineData("down")]
    [InlineData("status")]
    [InlineData("pids")]
    public void OnlyUpTakesTheUpOptions(string action)
    {
        var (code, error) = Run(action, "--nodes", "2");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains($"not '{action}'", error);
    }

    [Fact]
    public void WithoutStorageTheClusterRunsTheKeyValueDefault() => Assert.Equal("postgres", ClusterCatalogue.KvDefault(StorageCatalogue.Parse(CatalogueFixture.Json)));

    [Theory]
    [InlineData("postgres", "postgres")]
    [InlineData("tarantool-memtx", "tarantool")]
    [InlineData("redis-persistent", "redis-persistent")]
    [InlineData("redis-cluster", null)] // shards itself: not shardable in the catalogue's sense
    [InlineData("no-such", null)]
    public void EachNodesStoreIsTheCataloguesFirstServerOfAShardableArchitecture(string storage, string? server) =>
        Assert.Equal(server, ClusterCatalogue.StoreServer(StorageCatalogue.Parse(CatalogueFixture.Json), storage));

    [Fact]
    public void WithNoClusterUpDownSucceedsAndStatusFails()
    {
        var root = Directory.CreateTempSubdirectory().FullName;
        try
        {
            var ports = new Dictionary<string, string> { ["PG_PORT"] = "1", ["PORT"] = "2", ["CLUSTER_TARANTOOL_PORT"] = "3", ["CLUSTER_REDIS_PORT"] = "4" };
            var cluster = new LocalCluster(ClusterSettings.From(root, ports.GetValueOrDefault));
            cluster.Down();
            var status = new StringWriter();
            Assert.Equal(1, cluster.Status(status));
            Assert.Equal("no cluster is up", status.ToString().Trim());
            Assert.Equal("no cluster is up", Assert.Throws<ClusterException>(() => cluster.Pids(TextWriter.Null)).Message);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }
}
