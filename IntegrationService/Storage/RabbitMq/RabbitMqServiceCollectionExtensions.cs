using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.RabbitMq;

public static class RabbitMqServiceCollectionExtensions
{
    /// <summary>
    /// The RabbitMQ connection (options from the "RabbitMq" section), its health check and its queue
    /// store, and where RabbitMq:R3Endpoints is set, the same on the three-node cluster (keyed
    /// <see cref="RabbitMqConnection.R3BackendName"/>); the rabbitmq and rabbitmq-r3 architectures are composed in
    /// <see cref="Architectures"/>.
    /// </summary>
    public static IServiceCollection AddRabbitMq(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<RabbitMqOptions>().BindConfiguration("RabbitMq").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => new RabbitMqConnection(sp.GetRequiredService<IOptions<RabbitMqOptions>>().Value));
        services.AddSingleton<RabbitMqQueueStore>();
        services.AddHealthChecks().AddBackend<RabbitMqHealthCheck>(RabbitMqConnection.BackendName);
        if (!string.IsNullOrEmpty(configuration["RabbitMq:R3Endpoints"]))
        {
            const string r3 = RabbitMqConnection.R3BackendName;
            services.AddKeyedSingleton(r3, (sp, _) =>
            {
                var options = sp.GetRequiredService<IOptions<RabbitMqOptions>>().Value;
                var nodes = options.R3Nodes();
                return new RabbitMqConnection(options, r3, nodes, replicas: nodes.Count);
            });
            services.AddKeyedSingleton(r3, (sp, _) => new RabbitMqQueueStore(sp.GetRequiredKeyedService<RabbitMqConnection>(r3), sp.GetRequiredService<ILogger<RabbitMqQueueStore>>()));
            services.AddHealthChecks().AddBackend(r3, sp => new RabbitMqHealthCheck(sp.GetRequiredKeyedService<RabbitMqQueueStore>(r3)));
        }
        return services;
    }
}
