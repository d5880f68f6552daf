using IntegrationService.Items;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace IntegrationService.Storage.Redis;

public static class RedisServiceCollectionExtensions
{
    /// <summary>
    /// The Redis instances (options from the "Redis" section): their connections and health checks,
    /// the cache, the persistent item store and the data loaders. The architectures using them are
    /// composed in <see cref="Architectures"/>. redis-sentinel's connection and check exist only where
    /// Redis:Sentinel is set, redis-cluster-r2's only where Redis:ClusterR2 is.
    /// </summary>
    public static IServiceCollection AddRedis(this IServiceCollection services, IConfiguration configuration)
    {
        var configuredSentinel = configuration["Redis:Sentinel"];
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
            .AddBackend(RedisConnections.RdbName, sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().Rdb))
            .AddBackend(RedisConnections.ClusterName, sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().Cluster));
        if (!string.IsNullOrEmpty(configuredSentinel))
        {
            services.AddHealthChecks().AddBackend(RedisConnections.SentinelName,
                sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().Sentinel!));
        }
        if (!string.IsNullOrEmpty(configuration["Redis:ClusterR2"]))
        {
            services.AddHealthChecks().AddBackend(RedisConnections.ClusterR2Name,
                sp => new RedisHealthCheck(sp.GetRequiredService<RedisConnections>().ClusterR2!));
        }
        services.AddSingleton<IItemDataLoader, RedisPersistentItemDataLoader>();
        services.AddSingleton<IItemDataLoader, RedisCacheItemDataLoader>();
        services.AddSingleton<RedisPersistentItemStore>();
        return services;
    }
}
