namespace IntegrationService.Queues;

/// <summary>
/// Empties a queue at once with its store's own primitive (a purge, a truncate, a key's removal; a
/// pipelined drain where the store has none), for the purge-queue tool: the bench starts every
/// repetition of a queue cell from an empty queue. Meant for a queue nobody is using meanwhile: a
/// message written while the purge runs may be removed with the rest or may stay.
/// </summary>
public interface IQueuePurger
{
    /// <summary>
    /// Removes every waiting message of this queue only (no other queue's or entity's data); returns
    /// how many it removed, as the store counted them when it removed them.
    /// </summary>
    Task<long> PurgeAsync(CancellationToken cancellationToken);
}
