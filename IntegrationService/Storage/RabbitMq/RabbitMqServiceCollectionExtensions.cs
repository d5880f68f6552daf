using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.RabbitMq;

public static class RabbitMqServiceCollectionExtensions
{
    /// <summary>
    /// The RabbitMQ connection (options from the "RabbitMq" section), its health check and its queue
    /// store; the rabbitmq architecture is composed in <see cref="Architectures"/>.
    /// </summary>
    public static IServiceCollection AddRabbitMq(this IServiceCollection services)
    {
        services.AddOptions<RabbitMqOptions>().BindConfiguration("RabbitMq").ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => new RabbitMqConnection(sp.GetRequiredService<IOptions<RabbitMqOptions>>().Value));
        services.AddSingleton<RabbitMqQueueStore>();
        services.AddHealthChecks().AddBackend<RabbitMqHealthCheck>(RabbitMqConnection.BackendName);
        return services;
    }
}
