using System.Globalization;
using IntegrationService.Items;
using StackExchange.Redis;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// Item → location-id links kept only in the persistent Redis, one string per item holding the
/// sorted ids ("154,556,2546"): replacing the set is one atomic SET. Locations are read from
/// the catalog (PostgreSQL).
/// </summary>
public sealed class RedisPersistentItemStore(RedisConnections connections, ILocationCatalog catalog) : IItemStore
{
    private RedisConnection Redis => connections.Persistent;

    public async Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken)
    {
        var value = await Redis.RunAsync(db => db.StringGetAsync(Key(itemId)));
        if (value.IsNullOrEmpty) return [];
        return await catalog.GetLocationsAsync(Parse(value!), cancellationToken);
    }

    public async Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        var unknown = await catalog.FindUnknownAsync(locationIds, cancellationToken);
        if (unknown.Count > 0) throw new UnknownLocationsException(unknown);
        var key = Key(itemId);
        if (locationIds.Count == 0)
        {
            await Redis.RunAsync(db => db.KeyDeleteAsync(key));
        }
        else
        {
            var value = Format(locationIds);
            await Redis.RunAsync(db => db.StringSetAsync(key, value));
        }
    }

    internal static string Key(long itemId) => $"item:{itemId}:location-ids";

    internal static string Format(IEnumerable<long> locationIds) =>
        string.Join(',', locationIds.Select(id => id.ToString(CultureInfo.InvariantCulture)));

    private static long[] Parse(string value) =>
        value.Split(',').Select(s => long.Parse(s, CultureInfo.InvariantCulture)).ToArray();
}
