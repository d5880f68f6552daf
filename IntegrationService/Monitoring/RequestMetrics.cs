using System.Collections.Concurrent;
using System.Diagnostics;
using IntegrationService.Storage;
using Prometheus;

namespace IntegrationService.Monitoring;

/// <summary>
/// Times every request but <c>/metrics</c> into integration_http_request_duration_seconds. The first
/// middleware, so the status it records is the final one (the exception handler's 503 included). Per
/// request: three dictionary look-ups (endpoint, storage name, labelled child) and one observation.
/// </summary>
internal sealed class RequestMetrics(RequestDelegate next, ServiceMetrics metrics, StorageRegistry storages)
{
    public const string NoStorage = "none";
    public const string UnknownStorage = "unknown";

    private readonly ConcurrentDictionary<Endpoint, RouteLabels> _routes = new();
    private readonly RouteLabels _unmatched = RouteLabels.ForUnmatched(metrics.RequestDuration);

    public Task InvokeAsync(HttpContext context)
    {
        // Read before the pipeline runs: the exception handler clears the endpoint and the route
        // values before it writes its answer.
        var endpoint = context.GetEndpoint();
        var route = endpoint is null ? _unmatched : _routes.TryGetValue(endpoint, out var known) ? known : Add(endpoint);
        return route.Excluded ? next(context) : TimeAsync(context, route, StorageName(context, route.Storage));
    }

    private async Task TimeAsync(HttpContext context, RouteLabels route, string storage)
    {
        var start = Stopwatch.GetTimestamp();
        var status = StatusCodes.Status500InternalServerError; // what the client gets if anything escapes
        try
        {
            await next(context);
            status = context.Response.StatusCode;
        }
        finally
        {
            route.Child(storage, status).Observe(Stopwatch.GetElapsedTime(start).TotalSeconds, Exemplar.None);
        }
    }

    /// <summary>The canonical architecture name, resolved as the endpoint will; never the client's string as such.</summary>
    private string StorageName(HttpContext context, StorageSource source)
    {
        switch (source)
        {
            case StorageSource.Query or StorageSource.KvQuery:
                // The query is parsed once per request and cached; the endpoint's binding reads the same values.
                var values = context.Request.Query["storage"];
                var name = values.Count == 0 || string.IsNullOrEmpty(values[0]) ? (source == StorageSource.KvQuery ? storages.KvDefaultName : null) : values[0];
                return values.Count > 1 ? UnknownStorage : storages.CanonicalName(name) ?? UnknownStorage;
            case StorageSource.QueueRoute:
                return storages.CanonicalQueueName(context.Request.RouteValues["queue"] as string) ?? UnknownStorage;
            default:
                return NoStorage;
        }
    }

    private RouteLabels Add(Endpoint endpoint) =>
        _routes.GetOrAdd(endpoint, static (e, histogram) => RouteLabels.For(e, histogram, ServiceMetrics.Path), metrics.RequestDuration);
}
