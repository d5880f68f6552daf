using System.Text.Json;
using IntegrationService.Http;
using IntegrationService.Items;

namespace IntegrationService.Storage.Redis;

/// <summary>Read-through cache of an item's locations over any item store (see <see cref="CachedAuthorStore"/>).</summary>
public sealed class CachedItemStore(IItemStore inner, RedisCache cache) : IItemStore
{
    public async Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken)
    {
        var key = Key(itemId);
        var read = await cache.ReadAsync(key);
        if (read.Value is { } cached) return JsonSerializer.Deserialize(cached, ApiJsonContext.Default.LocationArray) ?? [];

        var locations = await inner.GetLocationsAsync(itemId, cancellationToken);
        cache.Fill(key, read.Lease, JsonSerializer.SerializeToUtf8Bytes(locations, ApiJsonContext.Default.IReadOnlyListLocation));
        return locations;
    }

    public Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken) =>
        cache.WriteAsync(Key(itemId), async () =>
        {
            await inner.ReplaceLocationsAsync(itemId, locationIds, cancellationToken);
            return true;
        });

    private static string Key(long itemId) => $"item:{itemId}:locations";
}
