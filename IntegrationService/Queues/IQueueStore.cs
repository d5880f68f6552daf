namespace IntegrationService.Queues;

/// <summary>
/// One message queue: FIFO, each message taken by exactly one reader. Messages are JSON documents
/// (UTF-8 bytes, already validated by the endpoint) that the store keeps as they are.
/// </summary>
public interface IQueueStore
{
    /// <summary>Appends a message; returns its id (assigned by the backend, increasing per queue).</summary>
    Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken);

    /// <summary>Takes the oldest message off the queue, or null when the queue is empty.</summary>
    Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken);

    /// <summary>Messages waiting (for the benchmark's start and end depth; may scan the queue).</summary>
    Task<long> CountAsync(CancellationToken cancellationToken);

    /// <summary>The store's bulk fill for the fill-queue tool, where it has one (else messages are written one by one).</summary>
    IQueueBulkFiller? BulkFiller => null;

    /// <summary>The store's purge for the purge-queue tool: every store has one, with its own fast primitive.</summary>
    IQueuePurger Purger { get; }
}
