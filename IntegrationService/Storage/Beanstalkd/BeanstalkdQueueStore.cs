using IntegrationService.Queues;
using Beanstalkd.Client;

namespace IntegrationService.Storage.Beanstalkd;

/// <summary>
/// The beanstalkd queue: put to write; reserve-with-timeout 0 and delete to read (an empty tube
/// answers at once). The client's failures become <see cref="StorageUnavailableException"/>.
/// A job whose delete is in doubt (the connection broke after the reserve) is not returned: the
/// read answers 503. If the delete did not happen, beanstalkd releases the job when the connection
/// closes and it is read again; if it did, the message is gone. So GET /read is at most once here
/// as on every queue, never handing a message out twice; the leased read below is the at-least-once path.
/// <para>
/// <b>The leased read is a reservation</b>, held by the service's one connection: a lease is
/// reserve-with-timeout 0, an ack deletes the job and a nack releases it, each on the connection
/// that reserved it (<see cref="BeanstalkdClient.DeleteReservedAsync"/>). The rule: <i>a lease
/// lives as long as its reservation.</i> When the lease ends unacknowledged the service releases
/// the job (within <see cref="LeaseBook{TMessage, TDelivery}.SweepInterval"/>). A reservation
/// lasts the job's time-to-run, so a lease that outlasts it is touched every third of it (the
/// client's <see cref="BeanstalkdClient.Ttr"/>, 60 s: jobs put with a shorter one by another
/// producer may come back early). When the connection closes — the service dies, the network
/// fails, beanstalkd restarts (a reservation is not in its binlog) — beanstalkd makes every job it
/// had reserved ready again at once, and those receipts are refused: the commands of a lease go on
/// the connection that reserved its job or nowhere, so no ack can delete the job under a newer
/// lease.
/// </para>
/// </summary>
public sealed class BeanstalkdQueueStore : IQueueStore, IAsyncDisposable
{
    public const string BackendName = "beanstalkd";

    /// <summary>
    /// Drainers of a purge: each keeps a reserve or a delete in flight on the client's one pipelined
    /// connection, so the server always has commands waiting instead of one round trip per command.
    /// </summary>
    private const int PurgeDrainers = 256;

    private readonly BeanstalkdClient _client;
    private readonly LeaseBook<ulong, BeanstalkdJob> _leases;

    public BeanstalkdQueueStore(BeanstalkdClient client, ILogger<BeanstalkdQueueStore> logger)
    {
        _client = client;
        _leases = new(GiveBackAsync, new LeaseHold<BeanstalkdJob>(client.Ttr, TouchAsync), TimeProvider.System, logger);
        _leases.Start();
    }

    public async Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        try
        {
            return checked((long)await _client.PutAsync(message, cancellationToken));
        }
        catch (BeanstalkdException e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
    }

    public async Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken)
    {
        var job = await ReserveAsync(cancellationToken);
        if (job is null) return null;
        try
        {
            await _client.DeleteAsync(job.Id, cancellationToken);
        }
        catch (BeanstalkdException e) when (IsUnavailable(e))
        {
            // In doubt: see the class summary.
            throw Unavailable(e);
        }
        return new QueueMessage(checked((long)job.Id), job.Body);
    }

    public async Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken)
    {
        var takenAt = _leases.Now;
        var job = await ReserveAsync(cancellationToken);
        if (job is null) return null;
        return new LeasedMessage(checked((long)job.Id), job.Body, _leases.Add(job.Id, job, lease, takenAt));
    }

    private async Task<BeanstalkdJob?> ReserveAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await _client.ReserveAsync(cancellationToken);
        }
        catch (BeanstalkdException e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
    }

    /// <summary>Deletes the job; a failure is a 503 and spends the receipt (the job was deleted, or is ready again).</summary>
    public Task<bool> AckAsync(string receipt, CancellationToken cancellationToken) =>
        EndLeaseAsync(receipt, static (client, job) => client.DeleteReservedAsync(job));

    /// <summary>Releases the job; a failure is a 503 and spends the receipt (the connection closed: the job is ready again).</summary>
    public Task<bool> NackAsync(string receipt, CancellationToken cancellationToken) =>
        EndLeaseAsync(receipt, static (client, job) => client.ReleaseAsync(job));

    /// <summary>
    /// Ends a lease held now. The request's token is not passed on: a lease taken from the book and
    /// then abandoned would leave its job reserved until its time-to-run; the client's timeout bounds the call.
    /// </summary>
    private async Task<bool> EndLeaseAsync(string receipt, Func<BeanstalkdClient, BeanstalkdJob, ValueTask<bool>> end)
    {
        if (!_leases.TryEnd(receipt, out var job)) return false;
        try
        {
            return await end(_client, job);
        }
        catch (BeanstalkdException e) when (IsUnavailable(e))
        {
            throw Unavailable(e);
        }
    }

    /// <summary>The sweep's release of an expired lease; false, or a failure, when the connection closed already (the job is ready again).</summary>
    private async Task GiveBackAsync(BeanstalkdJob job) => await _client.ReleaseAsync(job);

    private async Task<bool> TouchAsync(BeanstalkdJob job)
    {
        try
        {
            return await _client.TouchAsync(job);
        }
        catch (BeanstalkdUnavailableException)
        {
            return false; // the connection closed: the reservation with it
        }
    }

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await _client.ReadyCountAsync(cancellationToken);
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
            while (await _client.ReserveAsync(cancellationToken) is { } job)
            {
                await _client.DeleteAsync(job.Id, cancellationToken);
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
        // BURIED: the server had no memory to put the job (back) in its ready queue.
        || e is BeanstalkdProtocolException { Reply: "OUT_OF_MEMORY" or "DRAINING" or "INTERNAL_ERROR" or "BURIED" };

    private static StorageUnavailableException Unavailable(BeanstalkdException e) =>
        new(BackendName, e is BeanstalkdUnavailableException ? e.Message : $"refused: {e.Message}", e);

    public ValueTask DisposeAsync() => _leases.DisposeAsync();
}
