using IntegrationService.Storage.Nats;
using NATS.Client.Core;

namespace IntegrationService.Tests.Fixtures;

/// <summary>Tests that move nats-r3's leaders, or must not see them move: one at a time.</summary>
[CollectionDefinition("NatsR3")]
public sealed class NatsR3Collection;

/// <summary>
/// The tests' nats-r3 (script/services --test): which node leads the queue's stream and whether every node is
/// healthy, as script/services reads them (<c>primary</c>, <c>status</c>), and a failover through JetStream's own
/// API (a leader step-down of the stream and of its consumer), as an operator would start one.
/// </summary>
public static class NatsR3Topology
{
    private static readonly NatsOptions Defaults = new();

    /// <summary>The stream leader's address, or null while the nodes name none (an election).</summary>
    public static async Task<string?> LeaderAsync()
    {
        var (code, output, _) = await RepositoryRoot.TryServicesAsync("primary", "nats-r3");
        return code == 0 ? output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault() : null;
    }

    /// <summary>Makes the stream's leader and its consumer's step down and waits until another node leads the stream and every node is whole.</summary>
    public static async Task FailoverAsync()
    {
        var before = await LeaderAsync() ?? throw new InvalidOperationException(
            $"nats-r3: no node leads stream {Defaults.Stream} (the service creates it at its start; script/services --test up nats-r3)");
        await using (var nats = new NatsConnection(new NatsOpts { Url = PortTable.NatsR3Url(TestServers.NatsR3Port), RequestTimeout = TimeSpan.FromSeconds(5) }))
        {
            await nats.ConnectAsync();
            foreach (var subject in new[] { $"$JS.API.STREAM.LEADER.STEPDOWN.{Defaults.Stream}", $"$JS.API.CONSUMER.LEADER.STEPDOWN.{Defaults.Stream}.{Defaults.Consumer}" })
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
            if (await LeaderAsync() is { } now && now != before && (await RepositoryRoot.TryServicesAsync("status", "nats-r3")).Code == 0) return;
            await Task.Delay(200);
        }
        throw new TimeoutException($"nats-r3: no other node leads stream {Defaults.Stream} within 60 s of {before} stepping down");
    }
}
