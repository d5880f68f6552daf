using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Outages;

/// <summary>
/// Stops each real server under a running service: requests answer 503 with Retry-After (never
/// hang, never 500), and the service recovers by itself once the server is back.
/// </summary>
[Collection("Outages")]
public sealed class OutageTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private HttpClient Client => service.Client;

    [Theory]
    [InlineData("postgres", "/Author/GetAll?limit=1&storage=postgres")]
    [InlineData("postgres", "/item/1/locations?storage=postgres")]
    [InlineData("tarantool", "/Author/GetAll?limit=1&storage=tarantool-memtx")]
    [InlineData("tarantool", "/item/1/locations?storage=tarantool-vinyl")]
    [InlineData("redis-persistent", "/item/1/locations?storage=postgres-redis-persistent")]
    [InlineData("beanstalkd", "/depth/beanstalkd")]
    [InlineData("redis-aof", "/depth/redis_aof")]
    [InlineData("redis-rdb", "/depth/redis-rdb")]
    [InlineData("postgres", "/depth/postgres")]
    [InlineData("tarantool", "/depth/tarantool-vinyl")]
    [InlineData("rabbitmq", "/depth/rabbitmq")]
    [InlineData("nats", "/depth/nats-jetstream")]
    [InlineData("redis-sentinel", "/depth/redis-sentinel")]
    [InlineData("nats-r3", "/depth/nats-r3")]
    [InlineData("rabbitmq-r3", "/depth/rabbitmq-r3")]
    public async Task ABackendOutageIs503WithRetryAfterAndRecoversByItself(string server, string url)
    {
        Assert.Equal(HttpStatusCode.OK, (await Client.GetAsync(url)).StatusCode);
        await RepositoryRoot.ServicesAsync("down", server);
        try
        {
            await Recovery.AssertUnavailableAsync(Client, url);

            var health = await Client.GetAsync("/health");
            Assert.Equal(HttpStatusCode.ServiceUnavailable, health.StatusCode);
            Assert.Contains($"\"{server}\":{{\"status\":\"down\"", await health.Content.ReadAsStringAsync());
        }
        finally
        {
            await RepositoryRoot.ServicesAsync("up", server);
        }
        await Recovery.AssertRecoversAsync(Client, url);
    }

    /// <summary>
    /// The key-value stores: a key written before the outage answers 503 with Retry-After while its
    /// server is down (every master of the Redis Cluster, for redis-cluster) and is read back, the
    /// same bytes, once the server returns.
    /// </summary>
    [Theory]
    [InlineData("postgres", "postgres")]
    [InlineData("tarantool", "tarantool-memtx")]
    [InlineData("tarantool", "tarantool-vinyl")]
    [InlineData("redis-persistent", "redis-persistent")]
    [InlineData("redis-cluster", "redis-cluster")]
    [InlineData("redis-sentinel", "redis-sentinel")]
    [InlineData("redis-cluster-r2", "redis-cluster-r2")]
    [InlineData("postgres-patroni", "postgres-patroni")]
    [InlineData("postgres-patroni-sync", "postgres-patroni-sync")]
    public async Task AKeyValueStoreOutageIs503WithRetryAfterAndTheKeyIsThereAfterwards(string server, string storage)
    {
        var url = $"/v0/entity?id=outage-{Guid.NewGuid():N}&storage={storage}";
        Assert.Equal(HttpStatusCode.Created, (await Client.PutAsync(url, new ByteArrayContent([7, 0, 7]))).StatusCode);
        await RepositoryRoot.ServicesAsync("down", server);
        try
        {
            await Recovery.AssertUnavailableAsync(Client, url);
        }
        finally
        {
            await RepositoryRoot.ServicesAsync("up", server);
        }
        await Recovery.AssertRecoversAsync(Client, url);
        Assert.Equal([7, 0, 7], await Client.GetByteArrayAsync(url));
    }

    /// <summary>
    /// The cache is an optimisation: with Redis down, reads and writes are served by PostgreSQL,
    /// and a write made meanwhile is never hidden by a stale entry once Redis is back.
    /// </summary>
    [Fact]
    public async Task ACacheOutageFallsBackToPostgresAndStaysCoherent()
    {
        var item = Ids.NewItemId();
        var url = $"/item/{item}/locations?storage=postgres-redis-cache";
        await Client.PostAsJsonAsync(url, new { LocationIds = new[] { 1, 2 } });
        Assert.Contains("\"ID\":2", await Client.GetStringAsync(url)); // now cached

        await RepositoryRoot.ServicesAsync("down", "redis-cache");
        try
        {
            Assert.Equal(HttpStatusCode.OK, (await Client.PostAsJsonAsync(url, new { LocationIds = new[] { 3 } })).StatusCode);
            var during = await Client.GetStringAsync(url);
            Assert.Contains("\"ID\":3", during);
            Assert.DoesNotContain("\"ID\":2", during);
        }
        finally
        {
            await RepositoryRoot.ServicesAsync("up", "redis-cache");
        }
        var after = await Client.GetStringAsync(url);
        Assert.Contains("\"ID\":3", after);
        Assert.DoesNotContain("\"ID\":2", after);
    }
}
