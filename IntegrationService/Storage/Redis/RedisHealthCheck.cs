namespace IntegrationService.Storage.Redis;

internal sealed class RedisHealthCheck(RedisConnection connection) : IBackendHealthCheck
{
    public Task PingAsync(CancellationToken cancellationToken) => connection.RunAsync(db => db.PingAsync());
}
