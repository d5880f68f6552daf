using System.Globalization;
using Tank.Cpu;
using Harness.Processes;

namespace Lab.Bench;

/// <summary>
/// The processes whose CPU each measured run accounts for (tank adds itself): the service and the
/// servers the catalogue names for the architectures in the run, found by <c>script/services pid</c>.
/// A server of several processes (the Redis Cluster's masters) gets one entry per process.
/// PostgreSQL is called postgresql here, as in every earlier report.
/// </summary>
public static class CpuTargets
{
    public static IReadOnlyList<CpuTarget> ForService(int servicePid, IEnumerable<string> servers, string root, CancellationToken cancel)
    {
        var targets = new List<CpuTarget> { new("service", servicePid) };
        foreach (var server in servers) targets.AddRange(Server(server, root, cancel));
        return targets;
    }

    /// <summary>A server's processes by script/services pid; none when it is not running.</summary>
    public static IEnumerable<CpuTarget> Server(string server, string root, CancellationToken cancel)
    {
        var result = ProcessRunner.Run(Path.Combine(root, "script", "services"), ["pid", server], cancel);
        var pids = result.ExitCode == 0 ? Pids(result.Output) : [];
        var name = server == "postgres" ? "postgresql" : server;
        return pids.Count == 1 ? [new CpuTarget(name, pids[0])] : pids.Select((pid, i) => new CpuTarget($"{server}-{i + 1}", pid));
    }

    /// <summary>
    /// A cluster's processes by <c>script/cluster pids</c> (name=pid lines; node0 is the service the
    /// load goes to), plus the shared servers of <paramref name="servers"/> the nodes have no own
    /// instance of (the nodes' databases live on the one PostgreSQL).
    /// </summary>
    public static IReadOnlyList<CpuTarget> ForCluster(string pidsOutput, IEnumerable<string> servers, string root, CancellationToken cancel)
    {
        var targets = pidsOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(CpuTarget.Parse)
            .Select(t => t.Name == "node0" ? t with { Name = "service" } : t)
            .ToList();
        foreach (var server in servers.Where(s => !targets.Any(t => t.Name.StartsWith(s + "-node", StringComparison.Ordinal))))
            targets.AddRange(Server(server, root, cancel));
        return targets;
    }

    private static List<int> Pids(string output) =>
        output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => int.TryParse(line, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) ? pid : 0)
            .Where(pid => pid > 0)
            .ToList();
}
