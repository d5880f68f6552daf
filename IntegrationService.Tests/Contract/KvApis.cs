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
