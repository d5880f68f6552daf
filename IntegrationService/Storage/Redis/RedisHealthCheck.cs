namespace IntegrationService.Storage.Redis;

internal sealed class RedisHealthCheck(RedisConnection connection) : IBackendHealthCheck
{
    public string Name => connection.Name;

    public Task PingAsync(CancellationToken cancellationToken) => connection.RunAsync(db => db.PingAsync());
}
