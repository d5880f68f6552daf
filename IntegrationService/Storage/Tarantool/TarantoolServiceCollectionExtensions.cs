using IntegrationService.Items;

namespace IntegrationService.Storage.Tarantool;

public static class TarantoolServiceCollectionExtensions
{
    // Matches wal_mode in infra/config/tarantool/init.lua.
    public const string Durability =
        "wal_mode=write: every transaction is written to the WAL before the answer, not fsynced per commit " +
        "(a process crash loses nothing acknowledged; a host crash can lose the last moments).";

    /// <summary>
    /// The Tarantool client (options from the "Tarantool" section, one reconnecting connection kept by a
    /// hosted service), its health check and data loader, and the tarantool-memtx and tarantool-vinyl architectures.
    /// </summary>
    public static IServiceCollection AddTarantoolStorage(this IServiceCollection services)
    {
        services.AddOptions<TarantoolOptions>().BindConfiguration("Tarantool").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<TarantoolConnection>();
        services.AddHostedService<TarantoolConnectionService>();
        services.AddHealthChecks().AddBackend<TarantoolHealthCheck>(TarantoolHealthCheck.BackendName);
        services.AddSingleton<IItemDataLoader, TarantoolItemDataLoader>();
        services.AddSingleton(sp => Architecture(sp, "tarantool-memtx", TarantoolEngines.Memtx,
            "Tarantool 2.x, memtx engine (in memory), WAL on"));
        services.AddSingleton(sp => Architecture(sp, "tarantool-vinyl", TarantoolEngines.Vinyl,
            "Tarantool 2.x, vinyl engine (on-disk LSM tree), WAL on"));
        return services;
    }

    private static StorageArchitecture Architecture(IServiceProvider services, string name, string engine, string description)
    {
        var connection = services.GetRequiredService<TarantoolConnection>();
        return new StorageArchitecture(name, description, Durability,
            new TarantoolAuthorStore(connection, engine), new TarantoolItemStore(connection, engine), [TarantoolHealthCheck.BackendName], [])
        {
            Queue = new TarantoolQueueStore(connection, engine),
        };
    }
}
