using IntegrationService.Items;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// Loading a data set rewrites PostgreSQL's items behind the cache's back, so this "loader" (run
/// after PostgreSQL's) drops every cached item key and fill lease: without it the cache
/// architecture would serve the previous data set's locations until their TTL ran out.
/// </summary>
public sealed class RedisCacheItemDataLoader(RedisConnections connections) : IItemDataLoader
{
    // One SCAN step per call (short, well inside the client's timeout); UNLINK frees in the background.
    private const string DropStep = """
        local page = redis.call('SCAN', ARGV[1], 'MATCH', 'item:*', 'COUNT', 1000)
        for _, key in ipairs(page[2]) do redis.call('UNLINK', key) end
        return page[1]
        """;

    public string Name => "redis-cache";

    public async Task LoadAsync(ItemDataSet dataSet, CancellationToken cancellationToken)
    {
        var cursor = "0";
        do
        {
            cancellationToken.ThrowIfCancellationRequested();
            var next = cursor;
            cursor = (string?)await connections.Cache.RunAsync(db => db.ScriptEvaluateAsync(DropStep, values: [next])) ?? "0";
        }
        while (cursor != "0");
    }
}
