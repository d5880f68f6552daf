namespace IntegrationService.Tests.Fixtures;

/// <summary>Tests that move redis-cluster-r2's masters, or must not see them move: one at a time.</summary>
[CollectionDefinition("RedisClusterR2")]
public sealed class RedisClusterR2Collection;

/// <summary>
/// The tests' redis-cluster-r2 (script/services --test): the master of hash slot 0 and whether the cluster is
/// whole, as script/services reads them (<c>primary</c>, <c>status</c>), and a failover through the cluster's own
/// command (<c>CLUSTER FAILOVER</c> on that master's replica), as an operator would start one.
/// </summary>
public static class RedisClusterR2Topology
{
    /// <summary>Slot 0's master's address, or null while the nodes name none.</summary>
    public static async Task<string?> PrimaryAsync()
    {
        var (code, output, _) = await RepositoryRoot.TryServicesAsync("primary", "redis-cluster-r2");
        return code == 0 ? output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault() : null;
    }

    /// <summary>Has slot 0's master's replica take its place and waits until it serves slot 0 and the cluster is whole again; returns the new master.</summary>
    public static async Task<string> FailoverAsync()
    {
        var port = TestServers.RedisClusterR2Port.ToString();
        var before = await PrimaryAsync() ?? throw new InvalidOperationException("redis-cluster-r2: no node names a master of slot 0: script/services --test up redis-cluster-r2");
        var id = (await Processes.RunAsync("redis-cli", "-h", before, "-p", port, "cluster", "myid")).Trim();
        var replica = (await Processes.RunAsync("redis-cli", "-h", before, "-p", port, "cluster", "replicas", id))
            .Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split(' ')).Where(fields => fields.Length > 1 && fields[1].Contains(':'))
            .Select(fields => fields[1][..fields[1].IndexOf(':')]).FirstOrDefault()
            ?? throw new InvalidOperationException($"redis-cluster-r2: the master {before} has no replica");
        var answer = (await Processes.RunAsync("redis-cli", "-h", replica, "-p", port, "cluster", "failover")).Trim();
        if (answer != "OK") throw new InvalidOperationException($"redis-cluster-r2: CLUSTER FAILOVER on {replica} answered {answer}");
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (DateTime.UtcNow < deadline)
        {
            if (await PrimaryAsync() == replica && (await RepositoryRoot.TryServicesAsync("status", "redis-cluster-r2")).Code == 0) return replica;
            await Task.Delay(200);
        }
        throw new TimeoutException($"redis-cluster-r2: {replica} did not take slot 0 over from {before} within 60 s");
    }
}
