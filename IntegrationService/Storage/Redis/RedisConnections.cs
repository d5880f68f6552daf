using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Redis;

/// <summary>The Redis servers: the LRU cache, the persistent link store, and the two queue instances.</summary>
public sealed class RedisConnections(IOptions<RedisOptions> options) : IAsyncDisposable
{
    public const string CacheName = "redis-cache";
    public const string PersistentName = "redis-persistent";
    public const string AofName = "redis-aof";
    public const string RdbName = "redis-rdb";

    public RedisConnection Cache { get; } = Create(CacheName, options.Value.Cache, options.Value);

    public RedisConnection Persistent { get; } = Create(PersistentName, options.Value.Persistent, options.Value);

    public RedisConnection Aof { get; } = Create(AofName, options.Value.Aof, options.Value);

    public RedisConnection Rdb { get; } = Create(RdbName, options.Value.Rdb, options.Value);

    public IEnumerable<RedisConnection> All => [Cache, Persistent, Aof, Rdb];

    private static RedisConnection Create(string name, string endpoint, RedisOptions options) =>
        new(name, endpoint, options.Password, TimeSpan.FromMilliseconds(options.TimeoutMs));

    public async ValueTask DisposeAsync()
    {
        foreach (var connection in All) await connection.DisposeAsync();
    }
}
