namespace IntegrationService.Queues;

/// <summary>
/// A queue that can take many generated messages at once (fill-queue's fast path), in the same
/// format <see cref="IQueueStore.EnqueueAsync"/> writes, for a store whose one-by-one writes are too
/// slow to fill a deep queue between a benchmark's holds.
/// </summary>
public interface IQueueBulkFiller
{
    /// <summary>Appends the messages, in order, and commits them; a reader then sees all or none.</summary>
    Task FillAsync(IReadOnlyList<byte[]> messages, CancellationToken cancellationToken);
}
