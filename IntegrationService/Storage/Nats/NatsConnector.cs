namespace IntegrationService.Storage.Nats;

/// <summary>Starts connecting to NATS when the service starts, so the first requests need not wait for it.</summary>
internal sealed class NatsConnector(NatsJetStreamQueue queue) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        queue.StartConnecting();
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
