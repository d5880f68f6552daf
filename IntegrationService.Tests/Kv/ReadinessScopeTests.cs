using System.Net;
using System.Text.Json;
using IntegrationService.Tests.Fixtures;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Options;

namespace IntegrationService.Tests.Kv;

/// <summary>
/// /health/ready requires the servers of the architectures a node is configured to serve, not every
/// server: here the Redis Cluster is unreachable (a port nobody listens on) and only the nodes that
/// serve redis-cluster are unready for it.
/// </summary>
public sealed class ReadinessScopeTests
{
    private static readonly string DeadRedisCluster = $"--Redis:Cluster=127.0.0.1:{KvClusterFixture.FreePort()}";

    [Fact]
    public async Task ASingleNodeByDefaultRequiresEveryServerTheRedisClusterIncluded()
    {
        var (status, body) = await ReadinessAsync([DeadRedisCluster]);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, status);
        Assert.Equal("down", body.GetProperty("backends").GetProperty("redis-cluster").GetProperty("status").GetString());
        Assert.Equal("up", body.GetProperty("backends").GetProperty("postgres").GetProperty("status").GetString());
        Assert.Equal("down", body.GetProperty("architectures").GetProperty("redis-cluster").GetString());
        Assert.Equal("ready", body.GetProperty("architectures").GetProperty("postgres").GetString());
    }

    [Fact]
    public async Task AClusterNodeRequiresOnlyTheServersOfItsKeyValueDefault()
    {
        var self = $"http://127.0.0.1:{KvClusterFixture.FreePort()}";
        var other = $"http://127.0.0.1:{KvClusterFixture.FreePort()}";
        var (status, body) = await ReadinessAsync(
            [DeadRedisCluster, "--Kv:Default=tarantool-memtx", $"--Cluster:Nodes={self},{other}", $"--Cluster:Self={self}", "--Cluster:WarmConnectionsPerNode=0"],
            self);
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Equal(["tarantool"], Names(body.GetProperty("backends")));
        Assert.Equal(["tarantool-memtx"], Names(body.GetProperty("architectures")));
    }

    [Fact]
    public async Task ReadyArchitecturesNamesWhatANodeServesAndOnlyTheirServersCount()
    {
        var (ready, body) = await ReadinessAsync([DeadRedisCluster, "--Storage:ReadyArchitectures=postgres-redis-cache, redis-aof"]);
        Assert.Equal(HttpStatusCode.OK, ready);
        Assert.Equal(["postgres", "redis-aof", "redis-cache"], Names(body.GetProperty("backends")));
        Assert.Equal(["postgres-redis-cache", "redis-aof"], Names(body.GetProperty("architectures")));

        var (unready, _) = await ReadinessAsync([DeadRedisCluster, "--Storage:ReadyArchitectures=redis-aof,redis-cluster"]);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, unready);
    }

    [Fact]
    public void ANameThatIsNoArchitectureIsRefusedAtStart()
    {
        var e = Assert.Throws<OptionsValidationException>(() =>
            IntegrationService.ServiceHost.Build([.. TestServers.ServiceArguments(), "--Storage:ReadyArchitectures=postgres,mysql"]));
        Assert.Contains("mysql", e.Message);
    }

    private static string[] Names(JsonElement map) => map.EnumerateObject().Select(p => p.Name).Order(StringComparer.Ordinal).ToArray();

    private static async Task<(HttpStatusCode Status, JsonElement Body)> ReadinessAsync(string[] settings, string? url = null)
    {
        url ??= $"http://127.0.0.1:{KvClusterFixture.FreePort()}";
        await using var app = IntegrationService.ServiceHost.Build(
            ["--urls", url, "--Logging:LogLevel:Default=Warning", .. TestServers.ServiceArguments(), .. settings]);
        await app.StartAsync();
        try
        {
            using var client = new HttpClient { BaseAddress = new Uri(url), Timeout = TimeSpan.FromSeconds(30) };
            var response = await client.GetAsync("/health/ready");
            return (response.StatusCode, JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.Clone());
        }
        finally
        {
            await app.StopAsync();
        }
    }
}
