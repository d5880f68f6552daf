namespace IntegrationService.Tests.Fixtures;

/// <summary>Tests that move rabbitmq-r3's queue leader, or must not see it move: one at a time.</summary>
[CollectionDefinition("RabbitMqR3")]
public sealed class RabbitMqR3Collection;

/// <summary>
/// The tests' rabbitmq-r3 (script/services --test): which node leads the queue and whether every node is whole, as
/// script/services reads them (<c>primary</c>, <c>status</c>), and a failover as an operator starts one before taking
/// a node down for maintenance: <c>rabbitmq-upgrade drain</c> on the leader's node moves the leadership of its quorum
/// queues to other members and closes its clients' connections; <c>revive</c> brings the node back into service.
/// </summary>
public static class RabbitMqR3Topology
{
    private const string Bin = "/usr/lib/rabbitmq/bin";

    /// <summary>The queue leader's address, or null while the nodes name none.</summary>
    public static async Task<string?> LeaderAsync()
    {
        var (code, output, _) = await RepositoryRoot.TryServicesAsync("primary", "rabbitmq-r3");
        return code == 0 ? output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault() : null;
    }

    /// <summary>Drains the leader's node, waits until another node leads the queue, revives the node and waits until every node is whole.</summary>
    public static async Task FailoverAsync()
    {
        var before = await LeaderAsync() ?? throw new InvalidOperationException(
            "rabbitmq-r3: no node leads the queue (the service declares it on its first request; script/services --test up rabbitmq-r3)");
        var index = PortTable.RabbitMqR3Nodes.ToList().IndexOf(before) + 1;
        Assert.True(index > 0, $"rabbitmq-r3: the leader {before} is none of {string.Join(", ", PortTable.RabbitMqR3Nodes)}");
        try
        {
            await ToolAsync(index, "rabbitmq-upgrade", "drain");
            var moved = DateTime.UtcNow + TimeSpan.FromSeconds(60);
            while (await LeaderAsync() is var now && (now is null || now == before))
            {
                if (DateTime.UtcNow > moved) throw new TimeoutException($"rabbitmq-r3: no other node leads the queue within 60 s of draining {before}");
                await Task.Delay(200);
            }
        }
        finally
        {
            await ToolAsync(index, "rabbitmq-upgrade", "revive");
        }
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while ((await RepositoryRoot.TryServicesAsync("status", "rabbitmq-r3")).Code != 0)
        {
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"rabbitmq-r3: not whole within 60 s of reviving {before}");
            await Task.Delay(200);
        }
    }

    /// <summary>A RabbitMQ command-line tool on node <paramref name="index"/> (1-3), with the cluster's cookie (the node's HOME).</summary>
    private static Task<string> ToolAsync(int index, string tool, params string[] arguments) =>
        Processes.RunAsync("env", [$"HOME={Path.Combine(TestServers.DataDirectory, "rabbitmq-r3", $"node{index}")}", Path.Combine(Bin, tool), "-q",
            "-n", $"integration-r3-{TestServers.RabbitMqR3Port}-{index}@localhost", .. arguments]);
}
