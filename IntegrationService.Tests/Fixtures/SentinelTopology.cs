namespace IntegrationService.Tests.Fixtures;

/// <summary>Tests that move redis-sentinel's primary, or must not see it move: one at a time.</summary>
[CollectionDefinition("RedisSentinel")]
public sealed class RedisSentinelCollection;

/// <summary>
/// The tests' redis-sentinel (script/services --test): who its primary is, and a failover through the
/// Sentinels themselves (<c>SENTINEL FAILOVER</c>), as an operator would start one.
/// </summary>
public static class SentinelTopology
{
    private static int SentinelPort => TestServers.RedisSentinelPort + 10000;

    /// <summary>The primary's address as the first Sentinel that answers names it.</summary>
    public static async Task<string> PrimaryAsync()
    {
        foreach (var node in PortTable.SentinelNodes)
        {
            var answer = await Processes.RunAsync("redis-cli", "-h", node, "-p", SentinelPort.ToString(),
                "sentinel", "get-master-addr-by-name", PortTable.SentinelService);
            var address = answer.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault();
            if (address is { Length: > 0 } && PortTable.SentinelNodes.Contains(address)) return address;
        }
        throw new InvalidOperationException("no Sentinel of redis-sentinel names a primary: script/services --test up redis-sentinel");
    }

    /// <summary>Starts a failover and waits until the Sentinels name a new primary and the old one follows it; returns the new primary.</summary>
    public static async Task<string> FailoverAsync()
    {
        var before = await PrimaryAsync();
        await Processes.RunAsync("redis-cli", "-h", PortTable.SentinelNodes[2], "-p", SentinelPort.ToString(),
            "sentinel", "failover", PortTable.SentinelService);
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (DateTime.UtcNow < deadline)
        {
            var now = await PrimaryAsync();
            if (now != before)
            {
                var replication = await Processes.RunAsync("redis-cli", "-h", before, "-p", TestServers.RedisSentinelPort.ToString(), "info", "replication");
                if (replication.Contains($"master_host:{now}") && replication.Contains("master_link_status:up")) return now;
            }
            await Task.Delay(200);
        }
        throw new TimeoutException($"redis-sentinel: no failover from {before} within 60 s");
    }
}
