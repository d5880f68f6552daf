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

    /// <summary>
    /// Empties the queue at once with the store's own primitive (a purge, a truncate, a key's
    /// removal; a pipelined drain where the store has none), for the purge-queue tool: the bench
    /// starts every repetition of a queue cell from an empty queue. Removes this queue's waiting
    /// messages only, and returns how many, as the store counted them when it removed them. Meant
    /// for a queue nobody is using meanwhile: a message written during the purge may stay or go.
    /// </summary>
    Task<long> PurgeAsync(CancellationToken cancellationToken);
}
