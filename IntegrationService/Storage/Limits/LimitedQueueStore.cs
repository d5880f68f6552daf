using IntegrationService.Queues;

namespace IntegrationService.Storage.Limits;

/// <summary>An architecture's queue behind its backends' concurrency limits (<see cref="BackendLimiter"/>).</summary>
internal sealed class LimitedQueueStore(IQueueStore inner, BackendPermits permits) : IQueueStore
{
    public async Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.EnqueueAsync(message, cancellationToken);
    }

    public async Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.DequeueAsync(cancellationToken);
    }

    public async Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken)
    {
        using var permit = await permits.AcquireAsync();
        return await inner.LeaseAsync(lease, cancellationToken);
    }

    public async Task<bool> AckAsync(string receipt, CancellationToken cancellationToken)
    {
        using var permit = await permits.AcquireAsync();
        return await inner.AckAsync(receipt, cancellationToken);
    }

    public async Task<bool> NackAsync(string receipt, CancellationToken cancellationToken)
    {
        using var permit = await permits.AcquireAsync();
        return await inner.NackAsync(receipt, cancellationToken);
    }

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.CountAsync(cancellationToken);
    }

    public IQueueBulkFiller? BulkFiller => inner.BulkFiller;

    public Task<long> PurgeAsync(CancellationToken cancellationToken) => inner.PurgeAsync(cancellationToken);
}
