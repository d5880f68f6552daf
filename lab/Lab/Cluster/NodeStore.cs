using System.Globalization;

namespace Lab.Cluster;

/// <summary>
/// Each node's own store, by the server the catalogue names for the architecture: postgres → a
/// database integration_node&lt;i&gt; on the PostgreSQL of script/services; tarantool and
/// redis-persistent → an instance of its own, started by script/services with the node's data
/// directory and port. The servers a cluster can shard over are exactly these.
/// </summary>
public static class NodeStore
{
    public static readonly IReadOnlyList<string> Servers = ["postgres", "tarantool", "redis-persistent"];

    /// <summary>The environment script/services needs to run node <paramref name="node"/>'s own instance; null for postgres (one shared server).</summary>
    public static Dictionary<string, string>? ServicesEnvironment(string server, int node, ClusterSettings settings) => server switch
    {
        "tarantool" => new() { ["DATA_DIR"] = settings.NodeDir(node), ["TARANTOOL_PORT"] = Port(settings.TarantoolPort + node) },
        "redis-persistent" => new() { ["DATA_DIR"] = settings.NodeDir(node), ["REDIS_PERSISTENT_PORT"] = Port(settings.RedisPort + node) },
        _ => null,
    };

    /// <summary>The service's configuration key pointing node <paramref name="node"/> at its own store.</summary>
    public static string ServiceArgument(string server, int node, ClusterSettings settings) => server switch
    {
        "postgres" => $"--Postgres:ConnectionString=Host=127.0.0.1;Port={Port(settings.PgPort)};Username=integration;Database={Database(node)}",
        "tarantool" => $"--Tarantool:Port={Port(settings.TarantoolPort + node)}",
        "redis-persistent" => $"--Redis:Persistent=127.0.0.1:{Port(settings.RedisPort + node)}",
        _ => throw new ArgumentOutOfRangeException(nameof(server), server, "not a server a cluster node can have its own of"),
    };

    public static string Database(int node) => string.Create(CultureInfo.InvariantCulture, $"integration_node{node}");

    private static string Port(int port) => port.ToString(CultureInfo.InvariantCulture);
}
