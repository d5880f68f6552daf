using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Queues;

public sealed class RabbitMqQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "rabbitmq";
}

public sealed class NatsJetStreamQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "nats-jetstream";
}

public sealed class BeanstalkdQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "beanstalkd";
}

/// <summary>Through the original study's spelling, redis_aof.</summary>
public sealed class RedisAofQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "redis-aof";
    protected override string QueueInUrl => "redis_aof";
}

public sealed class RedisRdbQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "redis-rdb";
}

public sealed class PostgresQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "postgres";
}

public sealed class TarantoolMemtxQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "tarantool-memtx";
}

public sealed class TarantoolVinylQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "tarantool-vinyl";
}
