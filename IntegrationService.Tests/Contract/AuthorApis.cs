using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Contract;

public sealed class PostgresAuthorApi(ServiceFixture service) : AuthorApiContract(service)
{
    protected override string Storage => "postgres";
}

public sealed class PostgresRedisCacheAuthorApi(ServiceFixture service) : AuthorApiContract(service)
{
    protected override string Storage => "postgres-redis-cache";
}

public sealed class TarantoolMemtxAuthorApi(ServiceFixture service) : AuthorApiContract(service)
{
    protected override string Storage => "tarantool-memtx";
}

public sealed class TarantoolVinylAuthorApi(ServiceFixture service) : AuthorApiContract(service)
{
    protected override string Storage => "tarantool-vinyl";
}
