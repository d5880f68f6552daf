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
            .AddBackend(RedisConnections.PersistentName, sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().Persistent));
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
        return services;
    }
}
