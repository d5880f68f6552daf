using System.Net;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Kv;

/// <summary>The redis-cluster architecture spreads keys over all three masters (the client routes them; we do not).</summary>
public sealed class RedisClusterTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    [Fact]
    public async Task KeysPutThroughTheApiLandOnEveryMasterAndEachKeyOnExactlyOne()
    {
        var run = Guid.NewGuid().ToString("N");
        var keys = Enumerable.Range(0, 60).Select(i => $"spread-{run}-{i}").ToArray();
        foreach (var key in keys)
        {
            var response = await service.Client.PutAsync($"/v0/entity?id={key}&storage=redis-cluster", new ByteArrayContent([1, 2, 3]));
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        }

        var perMaster = new List<int>();
        foreach (var port in TestServers.RedisClusterPorts)
        {
            // Each master asked on its own connection (not as a cluster client): only the keys it holds.
            var held = await Processes.RunAsync("redis-cli", "-h", "127.0.0.1", "-p", port.ToString(), "--scan", "--pattern", $"kv:spread-{run}-*");
            perMaster.Add(held.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        }
        Assert.All(perMaster, count => Assert.True(count > 0, $"a master holds none of the keys: {string.Join(", ", perMaster)}"));
        Assert.Equal(keys.Length, perMaster.Sum());
    }
}
