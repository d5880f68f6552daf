using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Seeding;

/// <summary>
/// <c>IntegrationService purge-queue</c>'s checks that need the registry (the purge itself runs on
/// every queue in the queue contract, <see cref="Queues.QueueApiContract"/>).
/// </summary>
public sealed class PurgeQueueCommandTests
{
    [Fact]
    public async Task AnUnknownQueueIsAUsageErrorNamingTheKnownOnes()
    {
        var (code, output, error) = await ServiceTool.RunAsync("purge-queue", "--queue", "mongo");

        Assert.Equal(2, code);
        Assert.Equal("", output);
        Assert.Contains("purge-queue: error: --queue:", error);
        Assert.Contains("mongo", error);
        foreach (var known in new[] { "beanstalkd", "nats-jetstream", "postgres", "rabbitmq", "redis-aof", "redis-rdb", "tarantool-memtx", "tarantool-vinyl" })
            Assert.Contains(known, error);
    }
}
