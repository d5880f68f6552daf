using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Redis;

/// <summary>The Redis servers: the LRU cache, the persistent link store, the two queue instances, the cluster and, where configured, the primary behind the Sentinels and the cluster with replicas.</summary>
public sealed class RedisConnections(IOptions<RedisOptions> options) : IAsyncDisposable
{
    public const string CacheName = "redis-cache";
    public const string PersistentName = "redis-persistent";
    public const string AofName = "redis-aof";
    public const string RdbName = "redis-rdb";
    public const string ClusterName = "redis-cluster";
    public const string SentinelName = "redis-sentinel";
    public const string ClusterR2Name = "redis-cluster-r2";

    public RedisConnection Cache { get; } = Create(CacheName, options.Value.Cache, options.Value);

    public RedisConnection Persistent { get; } = Create(PersistentName, options.Value.Persistent, options.Value);

    public RedisConnection Aof { get; } = Create(AofName, options.Value.Aof, options.Value);

    public RedisConnection Rdb { get; } = Create(RdbName, options.Value.Rdb, options.Value);

    /// <summary>The Redis Cluster, through the client's own cluster support (it follows MOVED and ASK).</summary>
    public RedisConnection Cluster { get; } = Create(ClusterName, options.Value.Cluster, options.Value);

    /// <summary>
    /// The primary of redis-sentinel, through the client's own Sentinel support (it asks the Sentinels
    /// for the primary and reconnects to the new one when they announce a failover); null when
    /// Redis:Sentinel is not set.
    /// </summary>
    public RedisConnection? Sentinel { get; } = options.Value.Sentinel is { Length: > 0 } sentinel ? Create(SentinelName, sentinel, options.Value) : null;

    /// <summary>
    /// redis-cluster-r2, the Redis Cluster with a replica per master, through the client's own cluster support (it
    /// follows MOVED and re-reads the slots when a replica has taken over); null when Redis:ClusterR2 is not set.
    /// </summary>
    public RedisConnection? ClusterR2 { get; } = options.Value.ClusterR2 is { Length: > 0 } clusterR2 ? Create(ClusterR2Name, clusterR2, options.Value) : null;

    public IEnumerable<RedisConnection> All =>
        new[] { Cache, Persistent, Aof, Rdb, Cluster, Sentinel, ClusterR2 }.OfType<RedisConnection>();

    private static RedisConnection Create(string name, string endpoint, RedisOptions options) =>
        new(name, endpoint, options.Password, TimeSpan.FromMilliseconds(options.TimeoutMs));

    public async ValueTask DisposeAsync()
    {
        foreach (var connection in All) await connection.DisposeAsync();
    }
}
