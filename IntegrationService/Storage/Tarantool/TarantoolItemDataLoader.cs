using IntegrationService.Items;
using Tarantool.Iproto;
using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// Loads the data set into both engines with init.lua's bulk_replace: batches of tuples, each
/// batch one request and one transaction, several batches in flight on the one connection.
/// Replace makes it idempotent. Every item gets a tuple (an empty set reads as [] too).
/// </summary>
public sealed class TarantoolItemDataLoader(TarantoolConnection connection) : IItemDataLoader
{
    private const int BatchSize = 1000;
    private const int BatchesInFlight = 16;
    // A batch is far more work than one API call; the per-request default would be too tight.
    private static readonly TimeSpan BatchTimeout = TimeSpan.FromSeconds(60);

    public string Name => "tarantool";

    public async Task LoadAsync(ItemDataSet dataSet, CancellationToken cancellationToken)
    {
        // Sorted once here because item_locations_get returns the stored order.
        var items = dataSet.Items.Select(item => new ItemLinks(item.ItemId, item.LocationIds.Order().ToArray())).ToArray();
        using var inFlight = new SemaphoreSlim(BatchesInFlight);
        var batches = new List<Task>();
        foreach (var engine in TarantoolEngines.All)
        {
            // Locations first: nothing checks item links against them here, but readers expect them.
            batches.AddRange(Batches(dataSet.Locations.Count).Select(range =>
                SendBatchAsync(inFlight, "locations_" + engine, new LocationBatch(dataSet.Locations, range.Start, range.Count), cancellationToken)));
            batches.AddRange(Batches(items.Length).Select(range =>
                SendBatchAsync(inFlight, "items_" + engine, new ItemBatch(items, range.Start, range.Count), cancellationToken)));
        }
        await Task.WhenAll(batches);
    }

    private static IEnumerable<(int Start, int Count)> Batches(int total)
    {
        for (var start = 0; start < total; start += BatchSize) yield return (start, Math.Min(BatchSize, total - start));
    }

    private async Task SendBatchAsync<TBatch>(SemaphoreSlim inFlight, string space, TBatch batch, CancellationToken cancellationToken)
        where TBatch : ITupleBatch
    {
        await inFlight.WaitAsync(cancellationToken);
        try
        {
            using var response = await connection.SendAsync(IprotoCode.Call, (space, batch), WriteBulkReplace, BatchTimeout, cancellationToken);
        }
        finally
        {
            inFlight.Release();
        }
    }

    private static void WriteBulkReplace<TBatch>(ref MessagePackWriter writer, (string Space, TBatch Batch) call) where TBatch : ITupleBatch
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, "bulk_replace");
        writer.WriteArrayHeader(2);
        writer.Write(call.Space);
        call.Batch.Write(ref writer);
    }
}
