using System.Net;
using System.Text;
using IntegrationService.Queues;
using IntegrationService.Storage;
using IntegrationService.Tests.Fixtures;
using Microsoft.Extensions.DependencyInjection;

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

    /// <summary>
    /// A message whose insert commits after later ones were read (its id lies behind the take cursor)
    /// is still read, and the queue does not answer "empty" while it waits.
    /// </summary>
    [Fact]
    public async Task AMessageThatCommitsBehindTheTakeCursorIsStillRead()
    {
        await DrainAsync();
        var options = Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<IntegrationService.Storage.Postgres.PostgresOptions>>().Value;
        // A connection of its own: a pooled one may have been closed by the server in an earlier outage test.
        var connectionString = new Npgsql.NpgsqlConnectionStringBuilder(options.ConnectionString) { Pooling = false, Multiplexing = false }.ConnectionString;
        await using var connection = new Npgsql.NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var late = await connection.BeginTransactionAsync();
        await using (var insert = new Npgsql.NpgsqlCommand("insert into queue_messages (body) values ('{\"late\":true}'::bytea)", connection, late))
            await insert.ExecuteNonQueryAsync();
        for (var n = 0; n < 3; n++) Assert.Equal(HttpStatusCode.Created, (await WriteAsync($$"""{"n":{{n}}}""")).StatusCode);
        for (var n = 0; n < 3; n++) Assert.Contains($$"""{"n":{{n}}}""", await (await ReadAsync()).Content.ReadAsStringAsync());
        await late.CommitAsync();

        var read = await ReadAsync();
        Assert.Equal(HttpStatusCode.OK, read.StatusCode);
        Assert.Contains("\"read_message\":{\"late\":true}", await read.Content.ReadAsStringAsync());
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
    }

    /// <summary>fill-queue's COPY path: what it loads is read after what was written before it, in order, byte for byte.</summary>
    [Fact]
    public async Task ABulkFillIsReadBackAfterEarlierWritesInOrderAndByteForByte()
    {
        await DrainAsync();
        Assert.Equal(HttpStatusCode.Created, (await WriteAsync("""{"n":0}""")).StatusCode);
        var filler = Assert.IsAssignableFrom<IQueueBulkFiller>(Services.GetRequiredService<StorageRegistry>().Queue("postgres").Store.BulkFiller);
        await filler.FillAsync([.. Enumerable.Range(1, 3).Select(n => Encoding.UTF8.GetBytes($$"""{"n":{{n}},"s":"é"}"""))], CancellationToken.None);

        Assert.Contains("\"read_message\":{\"n\":0}", await (await ReadAsync()).Content.ReadAsStringAsync());
        for (var n = 1; n <= 3; n++)
        {
            var read = await ReadAsync();
            Assert.Equal(HttpStatusCode.OK, read.StatusCode);
            Assert.Contains($$"""
                "read_message":{"n":{{n}},"s":"é"}
                """, await read.Content.ReadAsStringAsync());
        }
        Assert.Equal(HttpStatusCode.NoContent, (await ReadAsync()).StatusCode);
    }
}

public sealed class TarantoolMemtxQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "tarantool-memtx";
}

public sealed class TarantoolVinylQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "tarantool-vinyl";
}

/// <summary>Through redis-sentinel's primary as the Sentinels name it.</summary>
[Collection("RedisSentinel")]
public sealed class RedisSentinelQueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "redis-sentinel";
}

/// <summary>The whole contract again on a service that followed a failover of redis-sentinel's primary.</summary>
[Collection("RedisSentinel")]
public sealed class RedisSentinelQueueApiAfterFailover(FailedOverSentinelFixture service) : QueueApiContract(service), IClassFixture<FailedOverSentinelFixture>
{
    protected override string Queue => "redis-sentinel";
}

/// <summary>Through whichever node of rabbitmq-r3 the client reached, the queue's leader wherever it is.</summary>
[Collection("RabbitMqR3")]
public sealed class RabbitMqR3QueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "rabbitmq-r3";
}

/// <summary>The whole contract again on a service whose node was drained: its connection closed and the queue's leader moved.</summary>
[Collection("RabbitMqR3")]
public sealed class RabbitMqR3QueueApiAfterFailover(FailedOverRabbitMqR3Fixture service) : QueueApiContract(service), IClassFixture<FailedOverRabbitMqR3Fixture>
{
    protected override string Queue => "rabbitmq-r3";
}

/// <summary>Through whichever node of nats-r3 the client reached, the stream's leader wherever it is.</summary>
[Collection("NatsR3")]
public sealed class NatsR3QueueApi(ServiceFixture service) : QueueApiContract(service)
{
    protected override string Queue => "nats-r3";
}

/// <summary>The whole contract again on a service whose stream and consumer leaders moved to other nodes after it started.</summary>
[Collection("NatsR3")]
public sealed class NatsR3QueueApiAfterFailover(FailedOverNatsR3Fixture service) : QueueApiContract(service), IClassFixture<FailedOverNatsR3Fixture>
{
    protected override string Queue => "nats-r3";
}
