namespace IntegrationService.Storage.RabbitMq;

internal sealed class RabbitMqHealthCheck(RabbitMqQueueStore store) : IBackendHealthCheck
{
    public Task PingAsync(CancellationToken cancellationToken) => store.CountAsync(cancellationToken);
}
