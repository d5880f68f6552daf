using System.Threading.RateLimiting;

namespace IntegrationService.Storage.Limits;

/// <summary>The limiters of the backend servers one architecture needs; <see cref="Acquire"/> takes a permit from each.</summary>
internal sealed class BackendPermits(IReadOnlyList<(string Backend, ConcurrencyLimiter Limiter)> limiters, int limit)
{
    /// <summary>The permits, to dispose when the store call ends; throws <see cref="BackendOverloadedException"/> when a backend is full.</summary>
    public Lease Acquire()
    {
        if (limiters.Count == 1)
        {
            var only = limiters[0].Limiter.AttemptAcquire();
            return only.IsAcquired ? new Lease(only, null) : throw Refused(only, limiters[0].Backend);
        }
        var leases = new RateLimitLease[limiters.Count];
        for (var i = 0; i < leases.Length; i++)
        {
            leases[i] = limiters[i].Limiter.AttemptAcquire();
            if (leases[i].IsAcquired) continue;
            for (var j = 0; j < i; j++) leases[j].Dispose();
            throw Refused(leases[i], limiters[i].Backend);
        }
        return new Lease(null, leases);
    }

    private BackendOverloadedException Refused(RateLimitLease lease, string backend)
    {
        lease.Dispose();
        return new BackendOverloadedException(backend, limit);
    }

    /// <summary>One permit (the common case, no array) or several.</summary>
    public readonly struct Lease(RateLimitLease? one, RateLimitLease[]? many) : IDisposable
    {
        public void Dispose()
        {
            one?.Dispose();
            if (many is not null) foreach (var lease in many) lease.Dispose();
        }
    }
}
