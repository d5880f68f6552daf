using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Redis;

/// <summary>The Redis servers: the LRU cache, the persistent link store, the two queue instances and the cluster.</summary>
public sealed class RedisConnections(IOptions<RedisOptions> options) : IAsyncDisposable
{
    public const string CacheName = "redis-cache";
    public const string PersistentName = "redis-persistent";
    public const string AofName = "redis-aof";
    public const string RdbName = "redis-rdb";
    public const string ClusterName = "redis-cluster";

    public RedisConnection Cache { get; } = Create(CacheName, options.Value.Cache, options.Value);

    public RedisConnection Persistent { get; } = Create(PersistentName, options.Value.Persistent, options.Value);

    public RedisConnection Aof { get; } = Create(AofName, options.Value.Aof, options.Value);

    public RedisConnection Rdb { get; } = Create(RdbName, options.Value.Rdb, options.Value);

    /// <summary>The Redis Cluster, through the client's own cluster support (it follows MOVED and ASK).</summary>
    public RedisConnection Cluster { get; } = Create(ClusterName, options.Value.Cluster, options.Value);

    public IEnumerable<RedisConnection> All => [Cache, Persistent, Aof, Rdb, Cluster];

    private static RedisConnection Create(string name, string endpoint, RedisOptions options) =>
        new(name, endpoint, options.Password, TimeSpan.FromMilliseconds(options.TimeoutMs));

    public async ValueTask DisposeAsync()
    {
        foreach (var connection in All) await connection.DisposeAsync();
    }
}
