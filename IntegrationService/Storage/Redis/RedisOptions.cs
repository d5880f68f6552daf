using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// Configuration section "Redis". The endpoints have no default here: infra/config/ports.txt gives the
/// local servers' (<see cref="PortTableConfiguration"/>), the environment any other's.
/// </summary>
public sealed class RedisOptions
{
    /// <summary>The cache instance, <c>host:port</c> (maxmemory 256mb, allkeys-lru, no persistence).</summary>
    [Required(ErrorMessage = "Redis:Cache is not set: Redis__Cache in the environment or --Redis:Cache=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public string Cache { get; set; } = "";

    /// <summary>The persistent instance, <c>host:port</c> (AOF everysec, noeviction).</summary>
    [Required(ErrorMessage = "Redis:Persistent is not set: Redis__Persistent in the environment or --Redis:Persistent=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public string Persistent { get; set; } = "";

    /// <summary>The redis-aof queue instance, <c>host:port</c> (AOF everysec, noeviction).</summary>
    [Required(ErrorMessage = "Redis:Aof is not set: Redis__Aof in the environment or --Redis:Aof=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public string Aof { get; set; } = "";

    /// <summary>The redis-rdb queue instance, <c>host:port</c> (RDB snapshots, save 1 1, no AOF, noeviction).</summary>
    [Required(ErrorMessage = "Redis:Rdb is not set: Redis__Rdb in the environment or --Redis:Rdb=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public string Rdb { get; set; } = "";

    /// <summary>
    /// Seed nodes of the Redis Cluster (<c>host:port,host:port,…</c>; 3 masters, AOF everysec): the
    /// client discovers the rest and routes each key to its slot's master itself.
    /// </summary>
    [Required(ErrorMessage = "Redis:Cluster is not set: Redis__Cluster in the environment or --Redis:Cluster=…, or run from a checkout, whose infra/config/ports.txt gives the local servers' endpoints")]
    public string Cluster { get; set; } = "";

    /// <summary>
    /// redis-sentinel's Sentinels and the name they watch the primary under, in StackExchange.Redis's
    /// syntax (<c>host:port,host:port,host:port,serviceName=integration</c>): the client asks them for the
    /// primary and follows it through a failover. Empty: the deployment has no redis-sentinel (the
    /// architecture is not offered).
    /// </summary>
    public string Sentinel { get; set; } = "";

    /// <summary>redis-sentinel's data nodes' appendfsync (infra/config/redis-sentinel.conf; a server setting, described only).</summary>
    [RegularExpression(AppendFsyncPolicies)]
    public string SentinelAppendFsync { get; set; } = "everysec";

    /// <summary>The Sentinels' down-after-milliseconds (infra/config/sentinel.conf; a server setting, described only).</summary>
    [Range(100, 600_000)]
    public int SentinelDownAfterMs { get; set; } = 2000;

    /// <summary>The Redis Cluster masters' appendfsync (infra/config/redis-cluster.conf), for the durability statement.</summary>
    public string ClusterAppendFsync { get; set; } = "everysec";

    /// <summary>
    /// Seed nodes of redis-cluster-r2, the Redis Cluster with a replica per master (<c>host:port,…</c>, every node):
    /// the client discovers the masters, routes each key to its slot's master and follows a failover through the
    /// cluster's own redirections. Empty: the deployment has no redis-cluster-r2 (the architecture is not offered).
    /// </summary>
    public string ClusterR2 { get; set; } = "";

    /// <summary>redis-cluster-r2's nodes' appendfsync (infra/config/redis-cluster-r2.conf; a server setting, described only).</summary>
    [RegularExpression(AppendFsyncPolicies)]
    public string ClusterR2AppendFsync { get; set; } = "everysec";

    /// <summary>redis-cluster-r2's cluster-node-timeout (infra/config/redis-cluster-r2.conf; a server setting, described only).</summary>
    [Range(100, 600_000)]
    public int ClusterR2NodeTimeoutMs { get; set; } = 2000;

    /// <summary>Optional password for every instance (the AWS deployment sets one).</summary>
    public string? Password { get; set; }

    /// <summary>Milliseconds one Redis call may take before it counts as unavailable.</summary>
    [Range(10, 60_000)]
    public int TimeoutMs { get; set; } = 1000;

    /// <summary>Lifetime of a cached entry, in seconds.</summary>
    [Range(1, 86_400 * 30)]
    public int CacheTtlSeconds { get; set; } = 3600;

    // The servers' own settings, from infra/config/redis-*.conf (used by script/services and the AWS
    // host). The service applies none of them: they describe the instances we are deployed against,
    // and the texts of GET /storages are built from them. Set them when an instance is configured otherwise.

    /// <summary>The cache instance's <c>maxmemory</c> (a server setting, described only).</summary>
    [Required]
    public string CacheMaxMemory { get; set; } = "256mb";

    /// <summary>The cache instance's <c>maxmemory-policy</c> (a server setting, described only).</summary>
    [RegularExpression(MaxMemoryPolicies)]
    public string CacheMaxMemoryPolicy { get; set; } = "allkeys-lru";

    /// <summary>The persistent instance's <c>appendfsync</c>: always, everysec or no (a server setting, described only).</summary>
    [RegularExpression(AppendFsyncPolicies)]
    public string PersistentAppendFsync { get; set; } = "everysec";

    /// <summary>The persistent instance's <c>maxmemory-policy</c> (a server setting, described only).</summary>
    [RegularExpression(MaxMemoryPolicies)]
    public string PersistentMaxMemoryPolicy { get; set; } = "noeviction";

    /// <summary>The redis-aof queue instance's <c>appendfsync</c>: always, everysec or no (a server setting, described only).</summary>
    [RegularExpression(AppendFsyncPolicies)]
    public string AofAppendFsync { get; set; } = "everysec";

    /// <summary>The redis-rdb queue instance's <c>save</c> rules, "seconds changes" pairs (a server setting, described only).</summary>
    [RegularExpression(@"^[0-9]+ [0-9]+( [0-9]+ [0-9]+)*$")]
    public string RdbSave { get; set; } = "1 1";

    /// <summary>The <c>maxmemory</c> of both queue instances, redis-aof and redis-rdb (a server setting, described only).</summary>
    [Required]
    public string QueueMaxMemory { get; set; } = "1gb";

    /// <summary>The <c>maxmemory-policy</c> of both queue instances (a server setting, described only).</summary>
    [RegularExpression(MaxMemoryPolicies)]
    public string QueueMaxMemoryPolicy { get; set; } = "noeviction";

    private const string AppendFsyncPolicies = "^(always|everysec|no)$";
    private const string MaxMemoryPolicies =
        "^(noeviction|allkeys-lru|allkeys-lfu|allkeys-random|volatile-lru|volatile-lfu|volatile-random|volatile-ttl)$";
}
