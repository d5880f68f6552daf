using IntegrationService.Storage.Beanstalkd.Client;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Beanstalkd;

public static class BeanstalkdServiceCollectionExtensions
{
    /// <summary>The Beanstalkd client (options from the "Beanstalkd" section), its health check and the beanstalkd queue architecture.</summary>
    public static IServiceCollection AddBeanstalkdStorage(this IServiceCollection services)
    {
        services.AddOptions<BeanstalkdOptions>().BindConfiguration("Beanstalkd").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp =>
        {
            var options = sp.GetRequiredService<IOptions<BeanstalkdOptions>>().Value;
            return new BeanstalkdClient(new BeanstalkdClientOptions
            {
                Host = options.Host,
                Port = options.Port,
                Tube = options.Tube,
                Timeout = TimeSpan.FromMilliseconds(options.TimeoutMs),
                ConnectTimeout = TimeSpan.FromMilliseconds(options.TimeoutMs),
            });
        });
        services.AddHealthChecks().AddBackend<BeanstalkdHealthCheck>(BeanstalkdQueueStore.BackendName);
        services.AddSingleton(sp => new StorageArchitecture(
            BeanstalkdQueueStore.BackendName,
            "Beanstalkd 1.12 with its binlog: put to write; reserve-with-timeout 0, then delete, to read.",
            "Binlog on (-b), fsynced at most once a second (-f 1000): a host crash can lose about the last second of acknowledged " +
            "messages, a crash of beanstalkd alone loses none. The original study ran beanstalkd without a binlog: nothing survived a restart.",
            null, null, [BeanstalkdQueueStore.BackendName], [])
        {
            Queue = new BeanstalkdQueueStore(sp.GetRequiredService<BeanstalkdClient>()),
        });
        return services;
    }
}
