using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Outages;

/// <summary>The test servers' processes, for stopping (SIGSTOP) and continuing (SIGCONT) them.</summary>
internal static class ServerProcesses
{
    /// <summary>
    /// The server's processes (a name script/services knows, e.g. "postgres", "redis-aof"): its main
    /// process from <c>script/services pid</c>; PostgreSQL with every backend.
    /// </summary>
    public static async Task<List<int>> PidsAsync(string server)
    {
        var pid = int.Parse((await RepositoryRoot.ServicesAsync("pid", server)).Trim());
        var pids = new List<int> { pid };
        if (server == "postgres")
        {
            var children = await Processes.RunAsync("pgrep", "-P", pid.ToString());
            pids.AddRange(children.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(int.Parse));
        }
        return pids;
    }

    public static Task<string> SignalAsync(string signal, List<int> pids) =>
        Processes.RunAsync("kill", [$"-{signal}", .. pids.Select(p => p.ToString())]);
}
