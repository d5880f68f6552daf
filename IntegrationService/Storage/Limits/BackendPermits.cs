using System.Threading.RateLimiting;

namespace IntegrationService.Storage.Limits;

/// <summary>The limiters of the backend servers one architecture needs; <see cref="AcquireAsync"/> takes a permit from each.</summary>
internal sealed class BackendPermits(IReadOnlyList<(string Backend, ConcurrencyLimiter Limiter)> limiters, BackendLimiter settings)
{
    /// <summary>
    /// The permits, to dispose when the store call ends, in the backends' fixed order (so two
    /// architectures sharing servers never wait on each other crosswise); throws
    /// <see cref="BackendOverloadedException"/> when a backend's queue is full or the wait ran out.
    /// Free permits are taken without waiting or allocating.
    /// </summary>
    public async ValueTask<Lease> AcquireAsync()
    {
        if (limiters.Count == 1) return new Lease(await AcquireOneAsync(limiters[0]).ConfigureAwait(false), null);
        var leases = new RateLimitLease[limiters.Count];
        for (var i = 0; i < leases.Length; i++)
        {
            try
            {
                leases[i] = await AcquireOneAsync(limiters[i]).ConfigureAwait(false);
            }
            catch (BackendOverloadedException)
            {
                for (var j = 0; j < i; j++) leases[j].Dispose();
                throw;
            }
        }
        return new Lease(null, leases);
    }

    private async ValueTask<RateLimitLease> AcquireOneAsync((string Backend, ConcurrencyLimiter Limiter) backend)
    {
        var lease = backend.Limiter.AttemptAcquire();
        if (lease.IsAcquired) return lease;
        lease.Dispose();
        if (settings.QueueLimit == 0) throw Refused(backend.Backend);
        using var wait = new CancellationTokenSource(settings.QueueWait);
        try
        {
            lease = await backend.Limiter.AcquireAsync(1, wait.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (wait.IsCancellationRequested)
        {
            throw Refused(backend.Backend);
        }
        if (lease.IsAcquired) return lease;
        lease.Dispose(); // the queue was full
        throw Refused(backend.Backend);
    }

    private BackendOverloadedException Refused(string backend) =>
        new(backend, settings.Limit, settings.QueueLimit, settings.QueueWait);

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
