using System.Globalization;
using Harness.Processes;
using IntegrationService;
using Lab.Cluster;

namespace Lab.Bench;

/// <summary>
/// The Redis data nodes a cell writes to, and how many times they forked (a snapshot, an AOF
/// rewrite: <c>total_forks</c> of INFO) and how long the latest fork blocked them
/// (<c>latest_fork_usec</c>): a fork stops Redis for that long and then shares its cores with the
/// child, a stall of the stack's own that a hold's windows show and that its record names. The
/// state reset waits for forks in progress on the same nodes. redis-cluster's masters are not read.
/// </summary>
public sealed class RedisForks(BenchContext context)
{
    /// <summary>A node's counters: forks since it started, and the latest fork's blocking time in ms.</summary>
    public sealed record Counters(long Forks, double LatestForkMs);

    /// <summary>host:port of each Redis data node of the cell's servers (redis-sentinel: primary and replica; redis-cluster-r2: all six).</summary>
    public IReadOnlyList<(string Server, string Host, int Port)> Nodes(string storage) =>
        [.. context.Servers(storage).Where(s => s.StartsWith("redis-", StringComparison.Ordinal) && s != "redis-cluster")
            .SelectMany(s => ServerPort(s) is { } port ? Hosts(s).Select(h => (s, h, port)) : [])];

    /// <summary>
    /// Where a Redis server's data nodes listen: redis-sentinel's primary and replica, and redis-cluster-r2's six
    /// nodes, on addresses of their own (each writes an AOF), every other one on 127.0.0.1.
    /// </summary>
    public static IReadOnlyList<string> Hosts(string server) => server switch
    {
        "redis-sentinel" => PortTable.SentinelDataNodes,
        "redis-cluster-r2" => PortTable.RedisClusterR2Nodes,
        _ => ["127.0.0.1"],
    };

    /// <summary>Every node's counters; null when a node could not be read (no figure rather than a wrong one).</summary>
    public IReadOnlyList<Counters>? Read(IReadOnlyList<(string Server, string Host, int Port)> nodes)
    {
        if (nodes.Count == 0 || !ProcessRunner.OnPath("redis-cli")) return null;
        var counters = new List<Counters>();
        foreach (var (_, host, port) in nodes)
        {
            var info = ProcessRunner.Run("redis-cli", ["-h", host, "-p", port.ToString(CultureInfo.InvariantCulture), "info", "stats"], context.Cancel);
            if (info.ExitCode != 0 || Parse(info.Output) is not { } parsed) return null;
            counters.Add(parsed);
        }
        return counters;
    }

    /// <summary>total_forks and latest_fork_usec of an INFO stats answer; null without them.</summary>
    public static Counters? Parse(string info)
    {
        long? forks = null;
        double? latest = null;
        foreach (var line in info.Split('\n'))
        {
            var (key, value) = line.Trim().Split(':', 2) is [var k, var v] ? (k, v) : ("", "");
            if (key == "total_forks" && long.TryParse(value, CultureInfo.InvariantCulture, out var f)) forks = f;
            if (key == "latest_fork_usec" && long.TryParse(value, CultureInfo.InvariantCulture, out var us)) latest = us / 1000.0;
        }
        return forks is { } n && latest is { } ms ? new Counters(n, ms) : null;
    }

    /// <summary>Forks between two reads of the same nodes, and the longest latest fork among the nodes that forked; null when either read failed.</summary>
    public static (long Forks, double? LongestForkMs)? Between(IReadOnlyList<Counters>? before, IReadOnlyList<Counters>? after)
    {
        if (before is null || after is null || before.Count != after.Count) return null;
        var forked = before.Zip(after).Where(p => p.Second.Forks > p.First.Forks).ToList();
        return (forked.Sum(p => p.Second.Forks - p.First.Forks), forked.Count == 0 ? null : forked.Max(p => p.Second.LatestForkMs));
    }

    // The server's port under this run, as script/lib.sh set it (the tests' instances under script/test).
    private int? ServerPort(string server)
    {
        var row = server.ToUpperInvariant().Replace('-', '_');
        return PortTable.Find(context.Options.Root)?.Names.Contains(row) == true
            ? ClusterSettings.ServerPort(context.Options.Root, Environment.GetEnvironmentVariable, $"{row}_PORT", row)
            : null;
    }
}
