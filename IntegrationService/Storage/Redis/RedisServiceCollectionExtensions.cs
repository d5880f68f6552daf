using IntegrationService.Items;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using IntegrationService.Storage.Postgres;

namespace IntegrationService.Storage.Redis;

public static class RedisServiceCollectionExtensions
{
    public static IServiceCollection AddRedisStorage(this IServiceCollection services)
    {
        services.AddOptions<RedisOptions>().BindConfiguration("Redis").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<RedisConnections>();
        services.AddHostedService<RedisConnector>();
        services.AddSingleton<RedisCache>();
        services.AddHostedService(sp => sp.GetRequiredService<RedisCache>());
        // The cache is an optimisation: without it, reads go to PostgreSQL, so its loss only degrades.
        services.AddHealthChecks()
            .AddBackend(RedisConnections.CacheName, sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().Cache), HealthStatus.Degraded)
            .AddBackend(RedisConnections.PersistentName, sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().Persistent))
            .AddBackend(RedisConnections.AofName, sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().Aof))
            .AddBackend(RedisConnections.RdbName, sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().Rdb));
        services.AddSingleton<IItemDataLoader, RedisPersistentItemDataLoader>();
        services.AddSingleton<IItemDataLoader, RedisCacheItemDataLoader>();

        services.AddSingleton(sp =>
        {
            var cache = sp.GetRequiredService<RedisCache>();
            var ttl = TimeSpan.FromSeconds(sp.GetRequiredService<IOptions<RedisOptions>>().Value.CacheTtlSeconds);
            return new StorageArchitecture(
                "postgres-redis-cache",
                $"Read-through Redis cache over PostgreSQL: a miss reads PostgreSQL and caches the answer for {ttl.TotalSeconds:0} s unless a write invalidated the key meanwhile; a write commits to PostgreSQL, then deletes the key. Redis: maxmemory 256mb, allkeys-lru.",
                $"{PostgresServiceCollectionExtensions.Durability} The cache keeps nothing of its own (no persistence); if it is unreachable, reads fall back to PostgreSQL and invalidations are retried until it returns.",
                new CachedAuthorStore(sp.GetRequiredService<PostgresAuthorStore>(), cache),
                new CachedItemStore(sp.GetRequiredService<PostgresItemStore>(), cache),
                [PostgresServiceCollectionExtensions.BackendName], [RedisConnections.CacheName]);
        });
        services.AddSingleton(sp => new StorageArchitecture(
            "postgres-redis-persistent",
            "Item links stored only in Redis (one key per item); locations read from PostgreSQL. Items only.",
            "Links: Redis appendonly yes, appendfsync everysec — a host crash can lose up to about 1 s of acknowledged writes; noeviction. Locations: PostgreSQL (synchronous_commit=on).",
            null,
            new RedisPersistentItemStore(sp.GetRequiredService<RedisConnections>(), sp.GetRequiredService<ILocationCatalog>()),
            [RedisConnections.PersistentName, PostgresServiceCollectionExtensions.BackendName], []));
        services.AddSingleton(sp => QueueArchitecture(sp.GetRequiredService<RedisConnections>().Aof,
            "A queue in one Redis list (RPUSH, LPOP) on its own instance with the append-only file.",
            "appendonly yes, appendfsync everysec: a host crash can lose about the last second of acknowledged messages; " +
            "noeviction with maxmemory 1gb: a full queue refuses writes (503) instead of dropping messages (the original study used allkeys-lru)."));
        services.AddSingleton(sp => QueueArchitecture(sp.GetRequiredService<RedisConnections>().Rdb,
            "A queue in one Redis list (RPUSH, LPOP) on its own instance with RDB snapshots only (the original study's settings).",
            "save 1 1, no AOF: a crash of Redis or of its host loses what was written since the last snapshot (a second or more); " +
            "noeviction with maxmemory 1gb: a full queue refuses writes (503) instead of dropping messages (the original study used allkeys-lru)."));
        return services;
    }

    private static StorageArchitecture QueueArchitecture(RedisConnection redis, string description, string durability) =>
        new(redis.Name, description, durability, null, null, [redis.Name], []) { Queue = new RedisQueueStore(redis) };
}
