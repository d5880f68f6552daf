using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Queues;

/// <summary>What the queue routes answer whatever the architecture: unknown names, aliases, /storages.</summary>
public sealed class QueueRouteTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private static readonly string[] Queues = ["beanstalkd", "nats-jetstream", "nats-r3", "postgres", "rabbitmq", "rabbitmq-r3", "redis-aof", "redis-rdb", "redis-sentinel", "tarantool-memtx", "tarantool-vinyl"];

    [Theory]
    [InlineData("GET", "/write/kafka")]
    [InlineData("POST", "/write/kafka")]
    [InlineData("GET", "/read/kafka")]
    [InlineData("GET", "/depth/kafka")]
    [InlineData("GET", "/read/postgres-redis-cache")] // an architecture, but not a queue
    [InlineData("GET", "/read/redis_persistent")]
    public async Task AnUnknownQueueIs400ListingTheValidNames(string method, string url)
    {
        var response = await service.Client.SendAsync(new HttpRequestMessage(new HttpMethod(method), url));
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        var detail = problem.GetProperty("errors").GetProperty("queue")[0].GetString()!;
        foreach (var queue in Queues) Assert.Contains(queue, detail);
    }

    [Theory]
    [InlineData("redis_aof", "redis-aof")]
    [InlineData("redis_rdb", "redis-rdb")]
    [InlineData("REDIS-AOF", "redis-aof")]
    public async Task TheOriginalsSpellingsAreAliases(string alias, string name)
    {
        var response = await service.Client.GetAsync($"/depth/{alias}");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(name, (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("queue").GetString());
    }

    [Fact]
    public async Task StoragesListsEveryQueueWithItsDurability()
    {
        var storages = await service.Client.GetFromJsonAsync<JsonElement[]>("/storages");
        var queues = storages!.Where(s => s.GetProperty("serves").EnumerateArray().Any(e => e.GetString() == "Queue")).ToArray();
        Assert.Equal(Queues, queues.Select(q => q.GetProperty("name").GetString()).Order(StringComparer.Ordinal));
        foreach (var queue in queues) Assert.False(string.IsNullOrWhiteSpace(queue.GetProperty("durability").GetProperty("text").GetString()));
        var beanstalkd = queues.Single(q => q.GetProperty("name").GetString() == "beanstalkd");
        Assert.Contains("binlog", beanstalkd.GetProperty("durability").GetProperty("text").GetString());
    }

    [Fact]
    public async Task SwaggerDocumentsTheQueueRoutes()
    {
        var swagger = await service.Client.GetStringAsync("/swagger/v1/swagger.json");
        foreach (var route in new[] { "/write/{queue}", "/read/{queue}", "/depth/{queue}" }) Assert.Contains($"\"{route}\"", swagger);
    }
}
