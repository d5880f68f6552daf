using IntegrationService.Storage.RabbitMq;
using IntegrationService.Storage.Redis;
using IntegrationService.Storage.Tarantool;
using Prometheus;

namespace IntegrationService.Monitoring;

public static class MetricsExtensions
{
    /// <summary>The registry behind <c>/metrics</c>, with the Tarantool, Redis and RabbitMQ clients' counters.</summary>
    public static IHostApplicationBuilder AddMetrics(this IHostApplicationBuilder builder)
    {
        builder.Services.AddSingleton(sp =>
        {
            var tarantool = sp.GetRequiredService<TarantoolConnection>();
            var redis = sp.GetRequiredService<RedisConnections>();
            List<BackendActivitySource> backends = [new(tarantool.Activity, () => tarantool.Activity.InFlight)];
            foreach (var connection in redis.All) backends.Add(new(connection.Activity, () => connection.InFlight));
            var rabbitMq = sp.GetRequiredService<RabbitMqConnection>();
            backends.Add(new(rabbitMq.Activity, () => rabbitMq.Activity.InFlight));
            if (sp.GetKeyedService<RabbitMqConnection>(RabbitMqConnection.R3BackendName) is { } r3) backends.Add(new(r3.Activity, () => r3.Activity.InFlight));
            return new ServiceMetrics(backends);
        });
        return builder;
    }

    /// <summary>Times every request; call first, so the recorded status is the final one.</summary>
    public static IApplicationBuilder UseRequestMetrics(this IApplicationBuilder app) => app.UseMiddleware<RequestMetrics>();

    /// <summary><c>GET /metrics</c> in Prometheus's text format.</summary>
    public static IEndpointConventionBuilder MapServiceMetrics(this IEndpointRouteBuilder app) =>
        app.MapMetrics(ServiceMetrics.Path, app.ServiceProvider.GetRequiredService<ServiceMetrics>().Registry)
            .WithTags("Service").ExcludeFromDescription();
}
