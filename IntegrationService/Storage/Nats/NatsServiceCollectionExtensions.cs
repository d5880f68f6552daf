using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Nats;

public static class NatsServiceCollectionExtensions
{
    /// <summary>
    /// The NATS connection and its JetStream queue (options from the "Nats" section) and its health
    /// check, and where Nats:R3Url is set, the same on the three-node cluster (keyed
    /// <see cref="NatsJetStreamQueue.R3BackendName"/>); the nats-jetstream and nats-r3 architectures are
    /// composed in <see cref="Architectures"/>.
    /// </summary>
    public static IServiceCollection AddNats(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<NatsOptions>().BindConfiguration("Nats").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => new NatsJetStreamQueue(sp.GetRequiredService<IOptions<NatsOptions>>().Value));
        services.AddSingleton<NatsQueueStore>();
        services.AddHostedService<NatsConnector>();
        services.AddHealthChecks().AddBackend<NatsHealthCheck>(NatsJetStreamQueue.BackendName);
        if (!string.IsNullOrEmpty(configuration["Nats:R3Url"]))
        {
            const string r3 = NatsJetStreamQueue.R3BackendName;
            services.AddKeyedSingleton(r3, (sp, _) =>
            {
                var options = sp.GetRequiredService<IOptions<NatsOptions>>().Value;
                return new NatsJetStreamQueue(options, r3, options.R3Url, replicas: 3);
            });
            services.AddKeyedSingleton(r3, (sp, _) => new NatsQueueStore(sp.GetRequiredKeyedService<NatsJetStreamQueue>(r3), sp.GetRequiredService<ILogger<NatsQueueStore>>()));
            services.AddHealthChecks().AddBackend(r3, sp => new NatsHealthCheck(sp.GetRequiredKeyedService<NatsQueueStore>(r3)));
        }
        return services;
    }
}
