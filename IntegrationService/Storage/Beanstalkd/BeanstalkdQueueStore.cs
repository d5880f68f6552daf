using IntegrationService.Queues;
using Beanstalkd.Client;

namespace IntegrationService.Storage.Beanstalkd;

/// <summary>
/// The beanstalkd queue: put to write; reserve-with-timeout 0 and delete to read (an empty tube
/// answers at once). The client's failures become <see cref="StorageUnavailableException"/>.
/// A job whose delete is in doubt (the connection broke after the reserve) is still returned:
/// if the delete did not happen, beanstalkd releases the job when the connection closes and it is
/// delivered again — at least once, never lost.
/// </summary>
public sealed class BeanstalkdQueueStore(BeanstalkdClient client) : IQueueStore
{
    public const string BackendName = "beanstalkd";

    /// <summary>
    /// Drainers of a purge: each keeps a reserve or a delete in flight on the client's one pipelined
    /// connection, so the server always has commands waiting instead of one round trip per command.
    /// </summary>
    private const int PurgeDrainers = 256;

    public async Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        try
        {
            return checked((long)await client.PutAsync(message, cancellationToken));
        }
        catch (BeanstalkdException e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
    }

    public async Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken)
    {
        BeanstalkdJob? job;
        try
        {
            job = await client.ReserveAsync(cancellationToken);
        }
        catch (BeanstalkdException e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
        if (job is null) return null;
        try
        {
            await client.DeleteAsync(job.Id, cancellationToken);
        }
        catch (BeanstalkdUnavailableException)
        {
            // In doubt: see the class summary.
        }
        return new QueueMessage(checked((long)job.Id), job.Body);
    }

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await client.ReadyCountAsync(cancellationToken);
        }
        catch (BeanstalkdException e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
    }

    /// <summary>
    /// beanstalkd has no purge: the tube is drained, reserve-with-timeout 0 and delete, by
    /// <see cref="PurgeDrainers"/> drainers at once. Each stops at its first empty reserve, so the
    /// purge ends once the tube has no ready job (jobs reserved by another client stay theirs).
    /// </summary>
    public async Task<long> PurgeAsync(CancellationToken cancellationToken)
    {
        long removed = 0;
        async Task DrainAsync()
        {
            while (await client.ReserveAsync(cancellationToken) is { } job)
            {
                await client.DeleteAsync(job.Id, cancellationToken);
                Interlocked.Increment(ref removed);
            }
        }
        try
        {
            await Task.WhenAll(Enumerable.Range(0, PurgeDrainers).Select(_ => DrainAsync()));
        }
        catch (BeanstalkdException e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
        return removed;
    }

    /// <summary>
    /// Unreachable, or refusing for now (out of memory, draining, an internal error): 503. A
    /// malformed exchange is a bug and stays one.
    /// </summary>
    private static bool IsUnavailable(BeanstalkdException e) =>
        e is BeanstalkdUnavailableException
        || e is BeanstalkdProtocolException { Reply: "OUT_OF_MEMORY" or "DRAINING" or "INTERNAL_ERROR" };

    private static StorageUnavailableException Unavailable(BeanstalkdException e) =>
        new(BackendName, e is BeanstalkdUnavailableException ? e.Message : $"refused: {e.Message}", e);
}
