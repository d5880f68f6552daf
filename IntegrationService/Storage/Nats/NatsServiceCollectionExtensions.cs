using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Nats;

public static class NatsServiceCollectionExtensions
{
    /// <summary>
    /// The NATS connection and its JetStream queue (options from the "Nats" section) and its health
    /// check; the nats-jetstream architecture is composed in <see cref="Architectures"/>.
    /// </summary>
    public static IServiceCollection AddNats(this IServiceCollection services)
    {
        services.AddOptions<NatsOptions>().BindConfiguration("Nats").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => new NatsJetStreamQueue(sp.GetRequiredService<IOptions<NatsOptions>>().Value));
        services.AddSingleton<NatsQueueStore>();
        services.AddHostedService<NatsConnector>();
        services.AddHealthChecks().AddBackend<NatsHealthCheck>(NatsJetStreamQueue.BackendName);
        return services;
    }
}
