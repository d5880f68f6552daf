namespace IntegrationService.Storage.Nats;

/// <summary>Starts connecting to NATS (and to nats-r3, where it is configured) when the service starts, so the first requests need not wait for it.</summary>
internal sealed class NatsConnector(IServiceProvider services) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        services.GetRequiredService<NatsJetStreamQueue>().StartConnecting();
        services.GetKeyedService<NatsJetStreamQueue>(NatsJetStreamQueue.R3BackendName)?.StartConnecting();
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
