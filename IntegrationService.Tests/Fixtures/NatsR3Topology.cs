using System.Text.Json;
using NATS.Client.Core;

namespace IntegrationService.Tests.Fixtures;

/// <summary>Tests that move nats-r3's leaders, or must not see them move: one at a time.</summary>
[CollectionDefinition("NatsR3")]
public sealed class NatsR3Collection;

/// <summary>
/// The tests' nats-r3 (script/services --test): which node leads the queue's stream (as its monitoring port
/// tells), and a failover through JetStream's own API (a leader step-down of the stream and of its consumer),
/// as an operator would start one.
/// </summary>
public static class NatsR3Topology
{
    private static readonly string Stream = new IntegrationService.Storage.Nats.NatsOptions().Stream;
    private static readonly string Consumer = new IntegrationService.Storage.Nats.NatsOptions().Consumer;
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(2) };

    /// <summary>The stream leader's server name (n1, n2, n3) as most nodes that answer name it, or null while none does.</summary>
    public static async Task<string?> LeaderAsync()
    {
        var named = new List<string>();
        foreach (var node in PortTable.NatsR3Nodes)
        {
            try
            {
                using var jsz = JsonDocument.Parse(await Http.GetStringAsync($"http://{node}:{TestServers.NatsR3Port + 1000}/jsz?accounts=true&streams=true"));
                foreach (var account in jsz.RootElement.TryGetProperty("account_details", out var accounts) ? accounts.EnumerateArray() : default)
                {
                    foreach (var stream in account.TryGetProperty("stream_detail", out var streams) ? streams.EnumerateArray() : default)
                    {
                        if (stream.GetProperty("name").GetString() == Stream && stream.GetProperty("cluster").TryGetProperty("leader", out var leader)
                            && leader.GetString() is { Length: > 0 } name)
                        {
                            named.Add(name);
                        }
                    }
                }
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
            {
            }
        }
        return named.GroupBy(name => name).OrderByDescending(group => group.Count()).Select(group => group.Key).FirstOrDefault();
    }

    /// <summary>Every node answers healthy: JetStream current with the meta leader, its streams caught up.</summary>
    public static async Task<bool> WholeAsync()
    {
        foreach (var node in PortTable.NatsR3Nodes)
        {
            try
            {
                if (!(await Http.GetStringAsync($"http://{node}:{TestServers.NatsR3Port + 1000}/healthz")).Contains("\"ok\"")) return false;
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>Makes the stream's leader and its consumer's step down and waits until another node leads the stream and every node is whole; returns the new leader.</summary>
    public static async Task<string> FailoverAsync()
    {
        var before = await LeaderAsync() ?? throw new InvalidOperationException(
            $"nats-r3: no node leads stream {Stream} (the service creates it at its start; script/services --test up nats-r3)");
        await using (var nats = new NatsConnection(new NatsOpts { Url = PortTable.NatsR3Url(TestServers.NatsR3Port), RequestTimeout = TimeSpan.FromSeconds(5) }))
        {
            await nats.ConnectAsync();
            foreach (var subject in new[] { $"$JS.API.STREAM.LEADER.STEPDOWN.{Stream}", $"$JS.API.CONSUMER.LEADER.STEPDOWN.{Stream}.{Consumer}" })
            {
                // A subscription of its own to the reply subject, then the request with that reply subject: the API's answer is plain JSON.
                var inbox = $"_INBOX.failover.{Guid.NewGuid():N}";
                await using var replies = await nats.SubscribeCoreAsync<string>(inbox);
                await nats.PublishAsync(subject, "", replyTo: inbox);
                using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
                var answer = await replies.Msgs.ReadAsync(timeout.Token);
                if (answer.Data?.Contains("\"success\":true") != true) throw new InvalidOperationException($"nats-r3: {subject} answered {answer.Data}");
            }
        }
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (DateTime.UtcNow < deadline)
        {
            if (await LeaderAsync() is { } now && now != before && await WholeAsync()) return now;
            await Task.Delay(200);
        }
        throw new TimeoutException($"nats-r3: no other node leads stream {Stream} within 60 s of {before} stepping down");
    }
}

/// <summary>The service, started before its nats-r3 stream and consumer leaders move to other nodes, which it must follow.</summary>
public sealed class FailedOverNatsR3Fixture : ServiceFixture, IAsyncLifetime
{
    /// <summary>The stream leader after the failover.</summary>
    public string Leader { get; private set; } = "";

    async Task IAsyncLifetime.InitializeAsync()
    {
        await InitializeAsync();
        // The stream exists once the service has answered a queue request on it.
        using (var response = await Client.GetAsync("/depth/nats-r3")) response.EnsureSuccessStatusCode();
        Leader = await NatsR3Topology.FailoverAsync();
    }
}
