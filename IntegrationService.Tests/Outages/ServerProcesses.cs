using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Outages;

/// <summary>The test servers' processes, for stopping (SIGSTOP) and continuing (SIGCONT) them.</summary>
internal static class ServerProcesses
{
    /// <summary>
    /// The server's processes ("postgres", "tarantool", "redis-persistent", "redis-cache"), from the
    /// pid file script/services keeps; PostgreSQL with every backend.
    /// </summary>
    public static async Task<List<int>> PidsAsync(string server)
    {
        var file = server switch
        {
            "postgres" => "postgres/postmaster.pid",
            "tarantool" => "tarantool/tarantool.pid",
            _ => $"{server}/redis.pid",
        };
        // Read with cat: Tarantool holds a lock on its pid file that .NET's own open would respect.
        var pid = int.Parse((await Processes.RunAsync("cat", Path.Combine(TestServers.DataDirectory, file))).Split('\n')[0].Trim());
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
