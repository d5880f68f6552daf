using Beanstalkd.Client;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Beanstalkd;

public static class BeanstalkdServiceCollectionExtensions
{
    /// <summary>
    /// The Beanstalkd client (options from the "Beanstalkd" section, its reconnect loop run by a hosted
    /// service), its health check and its queue store; the beanstalkd architecture is composed in
    /// <see cref="Architectures"/>.
    /// </summary>
    public static IServiceCollection AddBeanstalkd(this IServiceCollection services)
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
        services.AddHostedService<BeanstalkdConnectionService>();
        services.AddHealthChecks().AddBackend<BeanstalkdHealthCheck>(BeanstalkdQueueStore.BackendName);
        services.AddSingleton<BeanstalkdQueueStore>();
        return services;
    }
}
