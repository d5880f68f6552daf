using System.Threading.RateLimiting;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Limits;

/// <summary>
/// Overload shedding: at most <see cref="StorageOptions.MaxConcurrentRequestsPerBackend"/> store
/// calls in flight per backend server (PostgreSQL, Tarantool, each Redis, Beanstalkd), one
/// <see cref="ConcurrencyLimiter"/> each. When they are all taken, up to
/// <see cref="StorageOptions.MaxQueuedRequestsPerBackend"/> more wait, oldest first, for at most
/// <see cref="StorageOptions.MaxQueueWaitMs"/>; a call beyond the queue, or one whose wait ran
/// out, throws <see cref="BackendOverloadedException"/> (503 with Retry-After) instead of waiting
/// until every request times out. So a backend pushed past its capacity keeps serving about its
/// capacity with latency bounded by the wait, a burst of clients beyond the limit waits its turn,
/// and architectures on other servers are not affected.
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

    public BackendLimiter(IOptions<StorageOptions> options)
    {
        Limit = options.Value.MaxConcurrentRequestsPerBackend;
        QueueLimit = options.Value.MaxQueuedRequestsPerBackend;
        QueueWait = TimeSpan.FromMilliseconds(options.Value.MaxQueueWaitMs);
    }

    public int Limit { get; }

    public int QueueLimit { get; }

    public TimeSpan QueueWait { get; }

    /// <summary>The limiter of one backend server, created on first use.</summary>
    public ConcurrencyLimiter For(string backend)
    {
        lock (_limiters)
        {
            if (!_limiters.TryGetValue(backend, out var limiter))
            {
                _limiters[backend] = limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions
                {
                    PermitLimit = Limit,
                    QueueLimit = QueueLimit,
                    QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
                });
            }
            return limiter;
        }
    }

    /// <summary>Permits free on a backend right now (for tests and diagnostics).</summary>
    public long AvailablePermits(string backend) => For(backend).GetStatistics()?.CurrentAvailablePermits ?? Limit;
}
