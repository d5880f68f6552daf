namespace IntegrationService.Storage.Redis;

/// <summary>Connects both Redis instances at start-up, without failing start-up when one is down.</summary>
internal sealed class RedisConnector(RedisConnections connections) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken) =>
        Task.WhenAll(connections.Cache.ConnectAsync(), connections.Persistent.ConnectAsync());

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
