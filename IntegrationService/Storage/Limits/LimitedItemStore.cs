using IntegrationService.Items;

namespace IntegrationService.Storage.Limits;

/// <summary>An architecture's item store behind its backends' concurrency limits (<see cref="BackendLimiter"/>).</summary>
internal sealed class LimitedItemStore(IItemStore inner, BackendPermits permits) : IItemStore
{
    public async Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        return await inner.GetLocationsAsync(itemId, cancellationToken);
    }

    public async Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        using var lease = await permits.AcquireAsync();
        await inner.ReplaceLocationsAsync(itemId, locationIds, cancellationToken);
    }
}
