using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Storage.Redis;

/// <summary>Configuration section "Redis".</summary>
public sealed class RedisOptions
{
    /// <summary>The cache instance, <c>host:port</c> (maxmemory 256mb, allkeys-lru, no persistence).</summary>
    [Required]
    public string Cache { get; set; } = "127.0.0.1:16379";

    /// <summary>The persistent instance, <c>host:port</c> (AOF everysec, noeviction).</summary>
    [Required]
    public string Persistent { get; set; } = "127.0.0.1:16380";

    /// <summary>The redis-aof queue instance, <c>host:port</c> (AOF everysec, noeviction).</summary>
    [Required]
    public string Aof { get; set; } = "127.0.0.1:16381";

    /// <summary>The redis-rdb queue instance, <c>host:port</c> (RDB snapshots, save 1 1, no AOF, noeviction).</summary>
    [Required]
    public string Rdb { get; set; } = "127.0.0.1:16382";

    /// <summary>Optional password for every instance (the AWS deployment sets one).</summary>
    public string? Password { get; set; }

    /// <summary>Milliseconds one Redis call may take before it counts as unavailable.</summary>
    [Range(10, 60_000)]
    public int TimeoutMs { get; set; } = 1000;

    /// <summary>Lifetime of a cached entry, in seconds.</summary>
    [Range(1, 86_400 * 30)]
    public int CacheTtlSeconds { get; set; } = 3600;
}
