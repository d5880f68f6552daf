using IntegrationService.Items;

namespace IntegrationService.Storage.Tarantool;

public static class TarantoolServiceCollectionExtensions
{
    /// <summary>
    /// The Tarantool client (options from the "Tarantool" section, one reconnecting connection kept by a
    /// hosted service), its health check and data loader. Its stores take the engine as an argument;
    /// the tarantool-memtx and tarantool-vinyl architectures are composed in <see cref="Architectures"/>.
    /// </summary>
    public static IServiceCollection AddTarantool(this IServiceCollection services)
    {
        services.AddOptions<TarantoolOptions>().BindConfiguration("Tarantool").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<TarantoolConnection>();
        services.AddHostedService<TarantoolConnectionService>();
        services.AddHealthChecks().AddBackend<TarantoolHealthCheck>(TarantoolHealthCheck.BackendName);
        services.AddSingleton<IItemDataLoader, TarantoolItemDataLoader>();
        return services;
    }
}
