using System.Threading.RateLimiting;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Limits;

/// <summary>
/// Overload shedding: at most <see cref="StorageOptions.MaxConcurrentRequestsPerBackend"/> store
/// calls in flight per backend server (PostgreSQL, Tarantool, Redis persistent), one
/// <see cref="ConcurrencyLimiter"/> each, without a queue: the calls already admitted are the
/// backend's queue. A call beyond the limit throws <see cref="BackendOverloadedException"/> at once
/// (503 with Retry-After) instead of queueing behind the others until every request times out, so a
/// backend pushed past its capacity keeps serving about its capacity with latency bounded by limit ÷
/// throughput, and architectures on other servers are not affected.
/// </summary>
/// <remarks>
/// A permit covers the store call only, not the reading of the request body or the writing of the
/// answer: a client that sends or reads slowly never holds one. Architectures share their server's
/// limiter (tarantool-memtx and tarantool-vinyl share one server's CPU); an architecture on two
/// servers takes a permit from each.
/// </remarks>
public sealed class BackendLimiter
{
    private readonly Dictionary<string, ConcurrencyLimiter> _limiters = new(StringComparer.Ordinal);

    public BackendLimiter(IOptions<StorageOptions> options) => Limit = options.Value.MaxConcurrentRequestsPerBackend;

    public int Limit { get; }

    /// <summary>The limiter of one backend server, created on first use.</summary>
    public ConcurrencyLimiter For(string backend)
    {
        lock (_limiters)
        {
            if (!_limiters.TryGetValue(backend, out var limiter))
            {
                _limiters[backend] = limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = Limit, QueueLimit = 0 });
            }
            return limiter;
        }
    }

    /// <summary>Permits free on a backend right now (for tests and diagnostics).</summary>
    public long AvailablePermits(string backend) => For(backend).GetStatistics()?.CurrentAvailablePermits ?? Limit;
}
