using IntegrationService.Storage;

namespace IntegrationService.Seeding;

/// <summary>
/// A broker that holds one queue and nothing else (RabbitMQ, NATS JetStream): its depth, read
/// through the architecture's own queue store, or "not running" when nothing listens.
/// </summary>
internal static class QueueBrokerFingerprint
{
    public static async Task<ServerFingerprint> ReadAsync(string server, string host, int port, StorageRegistry registry, CancellationToken cancellationToken)
    {
        var endpoint = $"{host}:{port}";
        if (!await PortProbe.IsOpenAsync(host, port, cancellationToken)) return ServerFingerprint.Down(server, endpoint);
        var architecture = registry.All.Single(a => a.Backends.Contains(server) && a.Queue is not null);
        var depth = await architecture.Queue!.CountAsync(cancellationToken);
        return ServerFingerprint.Of(server, endpoint, [new("messages", depth)]);
    }
}
