using IntegrationService.Items;

namespace IntegrationService.Storage.Redis;

/// <summary>Loads the item links into the persistent Redis, pipelined in batches.</summary>
public sealed class RedisPersistentItemDataLoader(RedisConnections connections) : IItemDataLoader
{
    // Each command of a batch has the client's timeout (Redis:TimeoutMs): batches small enough
    // to finish well inside it even on a slow machine, large enough to keep the pipeline full.
    private const int BatchSize = 5_000;

    public string Name => "redis-persistent";

    public async Task LoadAsync(ItemDataSet dataSet, CancellationToken cancellationToken)
    {
        foreach (var batch in dataSet.Items.Chunk(BatchSize))
        {
            cancellationToken.ThrowIfCancellationRequested();
            await connections.Persistent.RunAsync(async db =>
            {
                await Task.WhenAll(batch.Select(item => item.LocationIds.Length == 0
                    ? db.KeyDeleteAsync(RedisPersistentItemStore.Key(item.ItemId))
                    : db.StringSetAsync(RedisPersistentItemStore.Key(item.ItemId), RedisPersistentItemStore.Format(item.LocationIds.Order()))));
                return batch.Length;
            });
        }
    }
}
