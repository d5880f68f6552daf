namespace IntegrationService.Items;

/// <summary>
/// The item → locations links of one storage architecture. Infrastructure failures throw
/// <see cref="Storage.StorageUnavailableException"/>.
/// </summary>
public interface IItemStore
{
    /// <summary>The item's locations ordered by id; empty when the item has none or was never written.</summary>
    Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken);

    /// <summary>
    /// Atomically replaces the item's whole set with <paramref name="locationIds"/> (distinct, positive;
    /// empty clears it). Concurrent writers never fail and the last one's set wins whole.
    /// Throws <see cref="UnknownLocationsException"/>, writing nothing, when an id names no location.
    /// </summary>
    Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken);

}
