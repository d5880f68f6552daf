using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Contract;

public sealed class PostgresItemApi(ServiceFixture service) : ItemApiContract(service)
{
    protected override string Storage => "postgres";
}

public sealed class PostgresRedisCacheItemApi(ServiceFixture service) : ItemApiContract(service)
{
    protected override string Storage => "postgres-redis-cache";
}

public sealed class PostgresRedisPersistentItemApi(ServiceFixture service) : ItemApiContract(service)
{
    protected override string Storage => "postgres-redis-persistent";
}

public sealed class TarantoolMemtxItemApi(ServiceFixture service) : ItemApiContract(service)
{
    protected override string Storage => "tarantool-memtx";
}

public sealed class TarantoolVinylItemApi(ServiceFixture service) : ItemApiContract(service)
{
    protected override string Storage => "tarantool-vinyl";
}
