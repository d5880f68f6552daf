namespace IntegrationService.Tests.Fixtures;

/// <summary>
/// The service, started before its replicated architecture fails over (<see cref="FailoverAsync"/>): a contract suite
/// on it checks that the service followed the new primary with its client's own mechanism.
/// </summary>
public abstract class FailedOverFixture : ServiceFixture, IAsyncLifetime
{
    /// <summary>Moves the primary to another node, once the service is up, and waits until the topology is whole again.</summary>
    protected abstract Task FailoverAsync();

    async Task IAsyncLifetime.InitializeAsync()
    {
        await InitializeAsync();
        await FailoverAsync();
    }
}

/// <summary>redis-sentinel's primary failed over by the Sentinels (<see cref="SentinelTopology.FailoverAsync"/>).</summary>
public sealed class FailedOverSentinelFixture : FailedOverFixture
{
    protected override Task FailoverAsync() => SentinelTopology.FailoverAsync();
}

/// <summary>redis-cluster-r2's slot 0 handed to its master's replica (<see cref="RedisClusterR2Topology.FailoverAsync"/>).</summary>
public sealed class FailedOverRedisClusterR2Fixture : FailedOverFixture
{
    protected override Task FailoverAsync() => RedisClusterR2Topology.FailoverAsync();
}

/// <summary>nats-r3's stream and consumer leaders moved to other nodes (<see cref="NatsR3Topology.FailoverAsync"/>).</summary>
public sealed class FailedOverNatsR3Fixture : FailedOverFixture
{
    protected override async Task FailoverAsync()
    {
        // The stream exists once the service has answered a queue request on it.
        using (var response = await Client.GetAsync("/depth/nats-r3")) response.EnsureSuccessStatusCode();
        await NatsR3Topology.FailoverAsync();
    }
}

/// <summary>rabbitmq-r3's leader node drained and revived (<see cref="RabbitMqR3Topology.FailoverAsync"/>).</summary>
public sealed class FailedOverRabbitMqR3Fixture : FailedOverFixture
{
    protected override async Task FailoverAsync()
    {
        // The queue exists once the service has answered a queue request on it.
        using (var response = await Client.GetAsync("/depth/rabbitmq-r3")) response.EnsureSuccessStatusCode();
        await RabbitMqR3Topology.FailoverAsync();
    }
}

/// <summary>postgres-patroni's primary switched over to a replica by Patroni (<see cref="PatroniTopology.FailoverAsync"/>).</summary>
public sealed class FailedOverPatroniFixture : FailedOverFixture
{
    protected override Task FailoverAsync() => PatroniTopology.FailoverAsync(synchronous: false);
}

/// <summary>postgres-patroni-sync's, the same.</summary>
public sealed class FailedOverPatroniSyncFixture : FailedOverFixture
{
    protected override Task FailoverAsync() => PatroniTopology.FailoverAsync(synchronous: true);
}
