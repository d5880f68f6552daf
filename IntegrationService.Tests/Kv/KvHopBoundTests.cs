using System.Net;
using System.Net.Http.Json;
using IntegrationService.Kv.Cluster;
using IntegrationService.Tests.Fixtures;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Mvc;

namespace IntegrationService.Tests.Kv;

/// <summary>
/// The hop to an owner that stalls: at most Cluster:MaxInFlightPerNode requests reach it, the
/// rest are shed with 503 and Retry-After after Cluster:ProxyQueueWaitMs, a write that timed out
/// says it is in doubt, and a client that gives up frees its place at once.
/// </summary>
public sealed class KvHopBoundTests : IAsyncLifetime
{
    private const int ProxyTimeoutMs = 1500;
    private readonly StalledNode _owner = new();
    private readonly string _url = $"http://127.0.0.1:{KvClusterFixture.FreePort()}";
    private WebApplication? _node;
    private HttpClient _client = null!;

    public async Task InitializeAsync()
    {
        _node = IntegrationService.ServiceHost.Build(
        [
            "--urls", _url, "--Logging:LogLevel:Default=Warning", .. TestServers.ServiceArguments(),
            $"--Cluster:Nodes={_url},{_owner.Url}", $"--Cluster:Self={_url}",
            $"--Cluster:ProxyTimeoutMs={ProxyTimeoutMs}", "--Cluster:MaxInFlightPerNode=1", "--Cluster:ConnectionsPerNode=1",
            "--Cluster:ProxyQueueWaitMs=50", "--Cluster:WarmConnectionsPerNode=0",
        ]);
        await _node.StartAsync();
        _client = new HttpClient { BaseAddress = new Uri(_url), Timeout = TimeSpan.FromSeconds(30) };
    }

    public async Task DisposeAsync()
    {
        _client.Dispose();
        if (_node is not null)
        {
            await _node.StopAsync();
            await _node.DisposeAsync();
        }
        await _owner.DisposeAsync();
    }

    private string KeyOfTheStalledOwner()
    {
        var hashing = new RendezvousHashing([_url, _owner.Url]);
        for (var i = 0; ; i++)
        {
            var key = $"hop-{Guid.NewGuid():N}-{i}";
            if (hashing.Owner(key) == _owner.Url) return key;
        }
    }

    [Fact]
    public async Task BeyondTheBoundARequestIsShedWith503AndRetryAfterAndTheOwnerSeesOneConnection()
    {
        var key = KeyOfTheStalledOwner();
        var held = _client.PutAsync($"/v0/entity?id={key}", new ByteArrayContent([1, 2, 3]));
        await WaitUntilAsync(() => _owner.Connections == 1);

        var shed = await _client.GetAsync($"/v0/entity?id={key}");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, shed.StatusCode);
        Assert.NotNull(shed.Headers.RetryAfter);
        var problem = await shed.Content.ReadFromJsonAsync<ProblemDetails>();
        Assert.Equal("Backend overloaded", problem!.Title);
        Assert.Contains("Cluster:MaxInFlightPerNode", problem.Detail);
        Assert.Contains("nothing was sent", problem.Detail);

        // The held write reached the owner and got no answer: a 503 that says the write is in doubt.
        var timedOut = await held;
        Assert.Equal(HttpStatusCode.ServiceUnavailable, timedOut.StatusCode);
        Assert.NotNull(timedOut.Headers.RetryAfter);
        var doubt = await timedOut.Content.ReadFromJsonAsync<ProblemDetails>();
        Assert.Contains($"no answer within {ProxyTimeoutMs} ms", doubt!.Detail);
        Assert.Contains("in doubt", doubt.Detail);
        Assert.Equal(1, _owner.Connections);
    }

    [Fact]
    public async Task AReadThatTimesOutIsNotCalledInDoubt()
    {
        var response = await _client.GetAsync($"/v0/entity?id={KeyOfTheStalledOwner()}");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<ProblemDetails>();
        Assert.Contains($"no answer within {ProxyTimeoutMs} ms", problem!.Detail);
        Assert.DoesNotContain("in doubt", problem.Detail);
    }

    [Fact]
    public async Task AClientThatGivesUpFreesItsPlaceAndIsAnswered499()
    {
        var key = KeyOfTheStalledOwner();
        using (var giveUp = new CancellationTokenSource())
        {
            var abandoned = _client.GetAsync($"/v0/entity?id={key}", giveUp.Token);
            await WaitUntilAsync(() => _owner.Connections == 1);
            await giveUp.CancelAsync();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => abandoned);
        }
        // Its place is free again: the next request is sent, not shed. It waits on the one connection
        // behind the abandoned request, which the owner never answers; at that one's deadline the
        // connection is dropped and the next request goes once more on a second connection if its own
        // deadline leaves time for it (on a busy machine it may not), where it times out: 503, and the
        // owner has seen one or two connections — never a shed answer, which would not reach the owner.
        await WaitUntilAsync(async () => (await MetricsAsync()).Contains("status=\"499\""));
        var next = await _client.GetAsync($"/v0/entity?id={key}");
        var problem = await next.Content.ReadFromJsonAsync<ProblemDetails>();
        Assert.Equal("Storage unavailable", problem!.Title);
        Assert.InRange(_owner.Connections, 1, 2);
        Assert.DoesNotContain("status=\"500\"", await MetricsAsync());
    }

    private async Task<string> MetricsAsync() =>
        string.Join('\n', (await _client.GetStringAsync("/metrics")).Split('\n').Where(l => l.Contains("route=\"/v0/entity\"")));

    private static Task WaitUntilAsync(Func<bool> condition) => WaitUntilAsync(() => Task.FromResult(condition()));

    private static async Task WaitUntilAsync(Func<Task<bool>> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (!await condition())
        {
            Assert.True(DateTime.UtcNow < deadline, "the condition did not hold within 10 s");
            await Task.Delay(20);
        }
    }
}
