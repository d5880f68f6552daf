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
        int Port(string name, string row, bool testColumn = true) => ServerPort(root, environment, name, row, testColumn);
        return new ClusterSettings(
            root,
            environment("DATA_DIR") is { Length: > 0 } data ? Path.GetFullPath(data) : Path.Combine(root, ".data"),
            Port("PG_PORT", "PG"),
            environment("PG_BIN") ?? "",
            Port("PORT", "SERVICE", testColumn: false),
            Port("CLUSTER_TARANTOOL_PORT", "CLUSTER_TARANTOOL"),
            Port("CLUSTER_REDIS_PORT", "CLUSTER_REDIS"));
    }

    /// <summary>
    /// A server's port as script/lib.sh sets it: <paramref name="variable"/> from the environment wins;
    /// else infra/config/ports.txt of the checkout at <paramref name="root"/>, its tests' column under
    /// script/test (TEST_INSTANCES=1, the nodes' stores included) unless <paramref name="testColumn"/> is false.
    /// </summary>
    public static int ServerPort(string root, Func<string, string?> environment, string variable, string row, bool testColumn = true)
    {
        if (environment(variable) is { Length: > 0 } text)
            return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port is > 0 and <= 65535
                ? port
                : throw new InputException($"{variable}: '{text}' is not a port");
        var table = PortTable.Find(root) ?? throw new InputException($"{variable} is not set and {Path.Combine(root, PortTable.RelativePath)} is missing");
        return environment("TEST_INSTANCES") == "1" && testColumn ? table.Test(row) : table.User(row);
    }
}
