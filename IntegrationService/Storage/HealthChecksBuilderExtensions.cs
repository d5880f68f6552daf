using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace IntegrationService.Storage;

public static class HealthChecksBuilderExtensions
{
    /// <summary>
    /// Registers a backend's ping as a readiness check named after the backend. A backend whose loss
    /// only slows the service (a cache) fails as <see cref="HealthStatus.Degraded"/>.
    /// </summary>
    public static IHealthChecksBuilder AddBackend<T>(this IHealthChecksBuilder builder, string name, HealthStatus failureStatus = HealthStatus.Unhealthy)
        where T : class, IBackendHealthCheck =>
        builder.AddBackend(name, sp => ActivatorUtilities.CreateInstance<T>(sp), failureStatus);

    public static IHealthChecksBuilder AddBackend(this IHealthChecksBuilder builder, string name,
        Func<IServiceProvider, IBackendHealthCheck> backend, HealthStatus failureStatus = HealthStatus.Unhealthy) =>
        builder.Add(new HealthCheckRegistration(name, sp => new BackendHealthCheck(backend(sp)), failureStatus, ["ready"]));
}
