using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Redis;

/// <summary>The two Redis servers: the LRU cache and the persistent link store.</summary>
public sealed class RedisConnections(IOptions<RedisOptions> options) : IAsyncDisposable
{
    public const string CacheName = "redis-cache";
    public const string PersistentName = "redis-persistent";

    public RedisConnection Cache { get; } = new(CacheName, options.Value.Cache, options.Value.Password, TimeSpan.FromMilliseconds(options.Value.TimeoutMs));

    public RedisConnection Persistent { get; } = new(PersistentName, options.Value.Persistent, options.Value.Password, TimeSpan.FromMilliseconds(options.Value.TimeoutMs));

    public async ValueTask DisposeAsync()
    {
        await Cache.DisposeAsync();
        await Persistent.DisposeAsync();
    }
}
