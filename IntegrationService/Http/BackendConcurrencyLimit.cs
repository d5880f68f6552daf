using System.Globalization;
using System.Threading.RateLimiting;
using IntegrationService.Storage;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace IntegrationService.Http;

/// <summary>Endpoint metadata: the route reads <c>?storage=</c> and calls that architecture's backends.</summary>
public sealed class UsesStorageBackends
{
    public static readonly UsesStorageBackends Instance = new();

    private UsesStorageBackends() { }
}

/// <summary>
/// Overload shedding: at most <see cref="StorageOptions.MaxConcurrentRequestsPerBackend"/> requests
/// in flight per backend server (PostgreSQL, Tarantool, Redis persistent). A request to an
/// architecture whose backend is at its limit is answered at once with 503 and Retry-After instead
/// of queueing behind the others until every request times out; the backend keeps serving about its
/// capacity with latency bounded by limit ÷ throughput. Architectures on other backends are not
/// affected. There is no queue: the requests already admitted are the backend's queue.
/// </summary>
/// <remarks>
/// One <see cref="ConcurrencyLimiter"/> per backend, shared by the architectures that need it
/// (tarantool-memtx and tarantool-vinyl share one server's CPU, so they share its limit); an
/// architecture that needs two backends takes a permit from each. A cache is not limited: a cache
/// that is slow or down is bypassed by the stores, not waited on.
/// </remarks>
internal sealed class BackendConcurrencyLimit
{
    private readonly Dictionary<string, (string Backend, ConcurrencyLimiter Limiter)[]> _byArchitecture;
    private readonly (string Backend, ConcurrencyLimiter Limiter)[]? _default;
    private readonly IProblemDetailsService _problems;
    private readonly string _retryAfter;
    private readonly RequestDelegate _next;

    public BackendConcurrencyLimit(RequestDelegate next, StorageRegistry registry, IOptions<StorageOptions> options, IProblemDetailsService problems)
    {
        _next = next;
        _problems = problems;
        Limit = options.Value.MaxConcurrentRequestsPerBackend;
        _retryAfter = options.Value.RetryAfterSeconds.ToString(CultureInfo.InvariantCulture);
        var limiters = registry.All.SelectMany(a => a.Backends).Distinct(StringComparer.Ordinal).ToDictionary(
            backend => backend,
            _ => new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = Limit, QueueLimit = 0 }),
            StringComparer.Ordinal);
        _byArchitecture = registry.All.ToDictionary(
            a => a.Name,
            a => a.Backends.Order(StringComparer.Ordinal).Select(b => (b, limiters[b])).ToArray(),
            StringComparer.OrdinalIgnoreCase);
        _default = _byArchitecture.GetValueOrDefault(registry.DefaultName);
    }

    public int Limit { get; }

    public Task InvokeAsync(HttpContext context)
    {
        if (context.GetEndpoint()?.Metadata.GetMetadata<UsesStorageBackends>() is null) return _next(context);
        var storage = context.Request.Query["storage"];
        if (storage.Count > 1) return TwiceAsync(context);
        // An unknown name passes: the endpoint answers it with 400 without touching a backend.
        var gates = storage.Count == 0 || string.IsNullOrEmpty(storage[0]) ? _default : _byArchitecture.GetValueOrDefault(storage[0]!);
        if (gates is null || gates.Length == 0) return _next(context);
        if (gates.Length == 1)
        {
            var lease = gates[0].Limiter.AttemptAcquire();
            return lease.IsAcquired ? RunAsync(context, lease) : ShedAsync(context, gates[0].Backend, lease);
        }
        var leases = new RateLimitLease[gates.Length];
        for (var i = 0; i < gates.Length; i++)
        {
            leases[i] = gates[i].Limiter.AttemptAcquire();
            if (leases[i].IsAcquired) continue;
            for (var j = 0; j < i; j++) leases[j].Dispose();
            return ShedAsync(context, gates[i].Backend, leases[i]);
        }
        return RunAsync(context, leases);
    }

    private async Task RunAsync(HttpContext context, RateLimitLease lease)
    {
        using (lease) await _next(context);
    }

    private async Task RunAsync(HttpContext context, RateLimitLease[] leases)
    {
        try
        {
            await _next(context);
        }
        finally
        {
            foreach (var lease in leases) lease.Dispose();
        }
    }

    // Which one would be meant is a guess (the framework's binding joins them with a comma, or
    // drops an empty first one): refuse it, on every architecture alike.
    private Task TwiceAsync(HttpContext context)
    {
        const string message = "The storage parameter may be given at most once.";
        context.Response.StatusCode = StatusCodes.Status400BadRequest;
        return _problems.WriteAsync(new ProblemDetailsContext
        {
            HttpContext = context,
            ProblemDetails = new ValidationProblemDetails(new Dictionary<string, string[]> { ["storage"] = [message] })
            {
                Status = StatusCodes.Status400BadRequest,
                Detail = message,
            },
        }).AsTask();
    }

    private async Task ShedAsync(HttpContext context, string backend, RateLimitLease refused)
    {
        refused.Dispose();
        context.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
        context.Response.Headers.RetryAfter = _retryAfter;
        await _problems.WriteAsync(new ProblemDetailsContext
        {
            HttpContext = context,
            ProblemDetails = new ProblemDetails
            {
                Status = StatusCodes.Status503ServiceUnavailable,
                Title = "Backend overloaded",
                Detail = $"{backend}: {Limit} requests are already in flight, the most allowed per backend (Storage:MaxConcurrentRequestsPerBackend); retry later.",
            },
        });
    }
}
