using Lab.Cluster;
using Harness.CommandLine;

namespace Lab.Tests.Cluster;

/// <summary>
/// Where a cluster lives and which ports its nodes' stores take: script/lib.sh's environment, else the
/// checkout's port table (here a table of the test's own, in a checkout of its own).
/// </summary>
public sealed class ClusterSettingsTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("cluster-settings-").FullName;

    public ClusterSettingsTests()
    {
        Directory.CreateDirectory(Path.Combine(_root, "infra", "config"));
        File.WriteAllLines(Path.Combine(_root, "infra", "config", "ports.txt"),
            ["# NAME USER TEST", "PG 15432 15433", "SERVICE 8080 -", "CLUSTER_TARANTOOL 13311 13411", "CLUSTER_REDIS 16411 16511"]);
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private ClusterSettings From(params (string Name, string Value)[] environment) =>
        ClusterSettings.From(_root, name => environment.FirstOrDefault(e => e.Name == name).Value);

    [Fact]
    public void WithoutEnvironmentOrTableAPortIsBadInputNamingIt()
    {
        File.Delete(Path.Combine(_root, "infra", "config", "ports.txt"));
        Assert.Contains("PG_PORT is not set", Assert.Throws<InputException>(() => From()).Message);
    }

    [Fact]
    public void WithoutEnvironmentTheTablesUserPortsApply()
    {
        var settings = From();
        Assert.Equal($"{_root}/.data/cluster/cluster.env", settings.StateFile);
        Assert.Equal($"{_root}/.data/cluster/node2.pid", settings.PidFile(2));
        Assert.Equal((15432, 8080, 13311, 16411), (settings.PgPort, settings.DefaultPort, settings.TarantoolPort, settings.RedisPort));
    }

    [Fact]
    public void TheTestsInstancesGiveTheNodesStoresPortsOfTheirOwn()
    {
        var settings = From(("TEST_INSTANCES", "1"), ("DATA_DIR", "/repo/.data/test"));
        Assert.Equal((15433, 13411, 16511), (settings.PgPort, settings.TarantoolPort, settings.RedisPort));
        Assert.Equal("/repo/.data/test/cluster/node1", settings.NodeDir(1));
    }

    [Fact]
    public void TheNodesStorePortsCanBeSetSoTwoClustersCanRunSideBySide()
    {
        var settings = From(("TEST_INSTANCES", "1"), ("CLUSTER_TARANTOOL_PORT", "19111"), ("CLUSTER_REDIS_PORT", "19211"));
        Assert.Equal((19111, 19211), (settings.TarantoolPort, settings.RedisPort));
    }

    [Fact]
    public void APortThatIsNotOneIsBadInputNamingTheVariable() =>
        Assert.Contains("CLUSTER_REDIS_PORT: 'x'", Assert.Throws<InputException>(() => From(("CLUSTER_REDIS_PORT", "x"))).Message);

    [Fact]
    public void EachNodesStoreIsStartedWithItsOwnDataDirectoryAndPort()
    {
        var settings = From(("CLUSTER_TARANTOOL_PORT", "19111"));
        Assert.Equal(new Dictionary<string, string> { ["DATA_DIR"] = $"{_root}/.data/cluster/node2", ["TARANTOOL_PORT"] = "19113" },
            NodeStore.ServicesEnvironment("tarantool", 2, settings));
        Assert.Equal("--Tarantool:Port=19113", NodeStore.ServiceArgument("tarantool", 2, settings));
        Assert.Equal("--Redis:Persistent=127.0.0.1:16412", NodeStore.ServiceArgument("redis-persistent", 1, settings));
    }

    [Fact]
    public void APostgresNodeGetsADatabaseOfItsOwnOnTheSharedServer()
    {
        var settings = From();
        Assert.Null(NodeStore.ServicesEnvironment("postgres", 1, settings));
        Assert.Equal("--Postgres:ConnectionString=Host=127.0.0.1;Port=15432;Username=integration;Database=integration_node1", NodeStore.ServiceArgument("postgres", 1, settings));
    }
}
