using IntegrationService.Items;

namespace IntegrationService.Storage.Redis;

/// <summary>Loads the item links into the persistent Redis, pipelined in batches.</summary>
public sealed class RedisPersistentItemDataLoader(RedisConnections connections) : IItemDataLoader
{
    private const int BatchSize = 20_000;

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
