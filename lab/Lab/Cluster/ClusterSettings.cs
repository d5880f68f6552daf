using IntegrationService;
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
        // Under script/test (its own servers) the nodes' stores take ports of their own as well.
        var test = environment("TEST_INSTANCES") == "1";
        // The environment script/lib.sh sets wins; else infra/config/ports.txt of the checkout at root.
        var table = PortTable.Find(root);
        int Port(string name, string row, bool testColumn = true)
        {
            if (environment(name) is { Length: > 0 } text)
                return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port is > 0 and <= 65535
                    ? port
                    : throw new InputException($"{name}: '{text}' is not a port");
            if (table is null) throw new InputException($"{name} is not set and {Path.Combine(root, PortTable.RelativePath)} is missing");
            return test && testColumn ? table.Test(row) : table.User(row);
        }
        return new ClusterSettings(
            root,
            environment("DATA_DIR") is { Length: > 0 } data ? Path.GetFullPath(data) : Path.Combine(root, ".data"),
            Port("PG_PORT", "PG"),
            environment("PG_BIN") ?? "",
            Port("PORT", "SERVICE", testColumn: false),
            Port("CLUSTER_TARANTOOL_PORT", "CLUSTER_TARANTOOL"),
            Port("CLUSTER_REDIS_PORT", "CLUSTER_REDIS"));
    }
}
