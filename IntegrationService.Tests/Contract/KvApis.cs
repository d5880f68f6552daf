using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Contract;

public sealed class PostgresKvApi(ServiceFixture service) : KvApiContract(service)
{
    protected override string Storage => "postgres";
}
