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

    /// <summary>
    /// The leased read: takes the oldest message that is neither leased nor acknowledged and holds it
    /// for <paramref name="lease"/>, or null when there is none. Until the lease ends the message is
    /// nobody else's; acknowledged (<see cref="AckAsync"/>) it is gone; given back
    /// (<see cref="NackAsync"/>) or not acknowledged in time, it is delivered again. Each store
    /// documents the mechanism (its own where it has one) and what happens to a lease when the
    /// service or the server fails.
    /// </summary>
    Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken);

    /// <summary>
    /// Deletes the message of a lease still held; false when the receipt names no lease held now
    /// (unknown, already acknowledged or given back, or expired: the message may be delivered again).
    /// </summary>
    Task<bool> AckAsync(string receipt, CancellationToken cancellationToken);

    /// <summary>Ends a lease still held at once, so the message is delivered again; false as for <see cref="AckAsync"/>.</summary>
    Task<bool> NackAsync(string receipt, CancellationToken cancellationToken);

    /// <summary>Messages waiting, not counting leased ones (for the benchmark's start and end depth; may scan the queue).</summary>
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
