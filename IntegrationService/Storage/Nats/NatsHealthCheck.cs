namespace IntegrationService.Storage.Nats;

internal sealed class NatsHealthCheck(NatsQueueStore store) : IBackendHealthCheck
{
    public Task PingAsync(CancellationToken cancellationToken) => store.CountAsync(cancellationToken);
}
