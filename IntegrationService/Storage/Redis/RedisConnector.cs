namespace IntegrationService.Storage.Redis;

/// <summary>Connects every Redis instance at start-up, without failing start-up when one is down.</summary>
internal sealed class RedisConnector(RedisConnections connections) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken) =>
        Task.WhenAll(connections.All.Select(c => c.ConnectAsync()));

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
