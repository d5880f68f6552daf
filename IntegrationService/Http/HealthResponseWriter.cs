using System.Globalization;
using System.Text.Json;
using IntegrationService.Storage;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace IntegrationService.Http;

/// <summary>
/// Writes the readiness report as JSON: each backend of the <see cref="ReadinessScope"/> (up or down, with its
/// latency and error) and each of its architectures (ready, degraded when only its cache is down, down when a backend it needs is).
/// </summary>
internal static class HealthResponseWriter
{
    public static Task WriteAsync(HttpContext context, HealthReport report)
    {
        var scope = context.RequestServices.GetRequiredService<ReadinessScope>();
        if (report.Status == HealthStatus.Unhealthy)
        {
            var retryAfter = context.RequestServices.GetRequiredService<IOptions<StorageOptions>>().Value.RetryAfterSeconds;
            context.Response.Headers.RetryAfter = retryAfter.ToString(CultureInfo.InvariantCulture);
        }
        var backends = report.Entries.ToDictionary(e => e.Key, e => new BackendHealth(
            e.Value.Status == HealthStatus.Healthy ? "up" : "down",
            Math.Round(e.Value.Duration.TotalMilliseconds, 3),
            e.Value.Description));
        var architectures = scope.Architectures.ToDictionary(a => a.Name, a => ArchitectureStatus(a, backends));
        var body = new ReadinessReport(Name(report.Status), backends, architectures);
        context.Response.ContentType = "application/json";
        return JsonSerializer.SerializeAsync(context.Response.Body, body, ApiJsonContext.Default.ReadinessReport);
    }

    private static string ArchitectureStatus(StorageArchitecture architecture, Dictionary<string, BackendHealth> backends)
    {
        bool Down(string name) => backends.TryGetValue(name, out var b) && b.Status != "up";
        if (architecture.Backends.Any(Down)) return "down";
        return architecture.Caches.Any(Down) ? "degraded" : "ready";
    }

    private static string Name(HealthStatus status) => status switch
    {
        HealthStatus.Healthy => "healthy",
        HealthStatus.Degraded => "degraded",
        _ => "unhealthy",
    };
}
