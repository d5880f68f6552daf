using System.Globalization;
using Harness.CommandLine;

namespace Lab.Cluster;

/// <summary>
/// Where a cluster lives and which ports its stores take, from the environment script/lib.sh
/// sets up (script/cluster runs this command through it): DATA_DIR, PG_PORT, PG_BIN, PORT,
/// TEST_INSTANCES, and CLUSTER_TARANTOOL_PORT / CLUSTER_REDIS_PORT for two clusters side by side.
/// </summary>
public sealed record ClusterSettings(string Root, string DataDir, int PgPort, string PgBin, int DefaultPort, int TarantoolPort, int RedisPort)
{
    public string ClusterDir => Path.Combine(DataDir, "cluster");

    public string StateFile => Path.Combine(ClusterDir, "cluster.env");

    public string ServiceDll => Path.Combine(Root, "IntegrationService", "bin", "Release", "net10.0", "IntegrationService.dll");

    public string Services => Path.Combine(Root, "script", "services");

    public string NodeDir(int node) => Path.Combine(ClusterDir, $"node{node}");

    public string PidFile(int node) => Path.Combine(ClusterDir, $"node{node}.pid");

    public string LogFile(int node) => Path.Combine(ClusterDir, $"node{node}.log");

    public static ClusterSettings From(string root, Func<string, string?> environment)
    {
        int Port(string name, int fallback) =>
            environment(name) is { Length: > 0 } text
                ? int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port is > 0 and <= 65535
                    ? port
                    : throw new InputException($"{name}: '{text}' is not a port")
                : fallback;
        // Under script/test (its own servers) the nodes' stores take ports of their own as well.
        var test = environment("TEST_INSTANCES") == "1";
        return new ClusterSettings(
            root,
            environment("DATA_DIR") is { Length: > 0 } data ? Path.GetFullPath(data) : Path.Combine(root, ".data"),
            Port("PG_PORT", 15432),
            environment("PG_BIN") ?? "",
            Port("PORT", 8080),
            Port("CLUSTER_TARANTOOL_PORT", test ? 13411 : 13311),
            Port("CLUSTER_REDIS_PORT", test ? 16511 : 16411));
    }
}
