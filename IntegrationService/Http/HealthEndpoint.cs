using System.Diagnostics;
using IntegrationService.Storage;
using Microsoft.Extensions.Options;

namespace IntegrationService.Http;

/// <summary><c>GET /health</c>: 200 when every configured backend answers a ping in time, else 503.</summary>
internal static class HealthEndpoint
{
    private static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(2);

    public static async Task<IResult> HandleAsync(
        IEnumerable<IBackendHealthCheck> checks, IOptions<StorageOptions> options, HttpContext context, CancellationToken cancellationToken)
    {
        var results = await Task.WhenAll(checks.Select(check => PingAsync(check, cancellationToken)));
        var healthy = results.All(r => r.Status == "up");
        if (!healthy)
        {
            context.Response.Headers.RetryAfter = options.Value.RetryAfterSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }
        var body = new HealthReport(healthy ? "healthy" : "unhealthy", results.ToDictionary(r => r.Name, r => r.Result));
        return Results.Json(body, statusCode: healthy ? StatusCodes.Status200OK : StatusCodes.Status503ServiceUnavailable);
    }

    private static async Task<(string Name, string Status, BackendHealth Result)> PingAsync(IBackendHealthCheck check, CancellationToken cancellationToken)
    {
        var stopwatch = Stopwatch.StartNew();
        try
        {
            await check.PingAsync(cancellationToken).WaitAsync(PingTimeout, cancellationToken);
            return (check.Name, "up", new BackendHealth("up", Math.Round(stopwatch.Elapsed.TotalMilliseconds, 3), null));
        }
        catch (Exception e) when (e is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            var error = e is TimeoutException ? $"no answer within {PingTimeout.TotalSeconds} s" : e.Message;
            return (check.Name, "down", new BackendHealth("down", Math.Round(stopwatch.Elapsed.TotalMilliseconds, 3), error));
        }
    }
}
