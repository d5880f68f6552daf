using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Contract;

public sealed class PostgresKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "postgres";
}

public sealed class TarantoolMemtxKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "tarantool-memtx";
}

public sealed class TarantoolVinylKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "tarantool-vinyl";
}

public sealed class RedisPersistentKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "redis-persistent";
}

public sealed class RedisClusterKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "redis-cluster";
}

/// <summary>Through redis-sentinel's primary as the Sentinels name it.</summary>
[Collection("RedisSentinel")]
public sealed class RedisSentinelKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "redis-sentinel";
}

/// <summary>The whole contract again on a service that followed a failover of redis-sentinel's primary.</summary>
[Collection("RedisSentinel")]
public sealed class RedisSentinelKvApiAfterFailover(FailedOverSentinelFixture service) : KvApiContract(service), IClassFixture<FailedOverSentinelFixture>
{
    protected override string Storage => "redis-sentinel";
}

/// <summary>Through redis-cluster-r2's masters, each key's slot's as the client finds it.</summary>
[Collection("RedisClusterR2")]
public sealed class RedisClusterR2KvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "redis-cluster-r2";
}

/// <summary>The whole contract again on a service that followed a failover of slot 0's master to its replica.</summary>
[Collection("RedisClusterR2")]
public sealed class RedisClusterR2KvApiAfterFailover(FailedOverRedisClusterR2Fixture service) : KvApiContract(service), IClassFixture<FailedOverRedisClusterR2Fixture>
{
    protected override string Storage => "redis-cluster-r2";
}

/// <summary>Through postgres-patroni's primary, as Npgsql finds it among the three nodes.</summary>
[Collection("Patroni")]
public sealed class PostgresPatroniKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "postgres-patroni";
}

/// <summary>
/// The whole contract again on a service that followed a switchover of postgres-patroni's primary. In the outages'
/// collection: for the seconds without a primary, every other test's service would find the topology down.
/// </summary>
[Collection("Outages")]
public sealed class PostgresPatroniKvApiAfterFailover(FailedOverPatroniFixture service) : KvApiContract(service), IClassFixture<FailedOverPatroniFixture>
{
    protected override string Storage => "postgres-patroni";
}

[Collection("Patroni")]
public sealed class PostgresPatroniSyncKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "postgres-patroni-sync";
}

[Collection("Outages")]
public sealed class PostgresPatroniSyncKvApiAfterFailover(FailedOverPatroniSyncFixture service) : KvApiContract(service), IClassFixture<FailedOverPatroniSyncFixture>
{
    protected override string Storage => "postgres-patroni-sync";
}
