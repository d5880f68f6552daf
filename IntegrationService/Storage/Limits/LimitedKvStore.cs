using IntegrationService.Kv;

namespace IntegrationService.Storage.Limits;

/// <summary>An architecture's key-value store behind its backends' concurrency limits (<see cref="BackendLimiter"/>).</summary>
internal sealed class LimitedKvStore(IKvStore inner, BackendPermits permits) : IKvStore
{
    public async Task<byte[]?> GetAsync(string key, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.GetAsync(key, cancellationToken);
    }

    public async Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        await inner.PutAsync(key, value, cancellationToken);
    }

    public async Task DeleteAsync(string key, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        await inner.DeleteAsync(key, cancellationToken);
    }
}
