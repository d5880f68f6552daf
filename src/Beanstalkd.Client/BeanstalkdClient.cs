using System.Runtime.CompilerServices;

namespace Beanstalkd.Client;

/// <summary>
/// A small client for beanstalkd's text protocol, for one tube, as a message queue: put a
/// message, take one (reserve without waiting, then delete), count what is ready.
/// <para>
/// <b>One connection, pipelined.</b> Every call of the client goes over a single connection:
/// commands are written in call order, several at once when callers overlap, and replies are
/// matched to calls first in, first out — beanstalkd answers a connection's commands strictly in
/// order. The server is one thread, so more connections would not make it answer faster, and one
/// connection is also what reservations need: a reservation belongs to the connection that
/// reserved the job, and <c>delete</c> of a reserved job is only accepted on it.
/// </para>
/// <para>
/// <b>At least once.</b> If the connection is lost between <see cref="ReserveAsync"/> and
/// <see cref="DeleteAsync"/>, beanstalkd puts the reserved job back to ready when it notices,
/// and the delete, sent on the next connection, either deletes that ready job or (when another
/// consumer reserved it first, or the server had not noticed yet) fails with NOT_FOUND: then the
/// job is delivered again. A job whose delete never comes (a caller that dies) returns to ready
/// after its time-to-run (<see cref="BeanstalkdClientOptions.Ttr"/>).
/// </para>
/// <para>
/// <b>Reservations.</b> A reserved job (<see cref="BeanstalkdJob"/>) remembers the connection that
/// reserved it, and <see cref="DeleteReservedAsync"/>, <see cref="ReleaseAsync"/> and
/// <see cref="TouchAsync"/> go on that connection or nowhere: once it has closed, beanstalkd has put
/// the job back to ready, and a command sent on the next connection could act on someone else's
/// reservation of it (or a ready job) instead.
/// </para>
/// <para>
/// <b>Failures.</b> Every call is bounded by <see cref="BeanstalkdClientOptions.Timeout"/>,
/// connecting included; without a reply by then it throws
/// <see cref="BeanstalkdUnavailableException"/> and the connection is dropped, because its late
/// reply would be taken for the next call's. The client connects on the first call and, after
/// the connection is lost or the server restarts, on the next call by itself (with a pause
/// after a failed attempt, see <see cref="BeanstalkdClientOptions.ReconnectDelay"/>); while
/// <see cref="RunAsync"/> runs (a hosted service's loop) it also reconnects in the background. An error
/// from the server is a <see cref="BeanstalkdProtocolException"/>. Cancelling a call only stops
/// its caller waiting: the command may still take effect (a reserved job is then released).
/// </para>
/// Safe for any number of concurrent callers; no call blocks a thread.
/// </summary>
public sealed class BeanstalkdClient : IAsyncDisposable
{
    private readonly BeanstalkdConnector _connector;
    private readonly long _timeoutMs;

    /// <summary>Checks <paramref name="options"/> (<see cref="BeanstalkdClientOptions.Validate"/>) and keeps a copy; connects on the first call.</summary>
    public BeanstalkdClient(BeanstalkdClientOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var settings = options.Copy();
        Endpoint = settings.Host.Contains(':') ? $"[{settings.Host}]:{settings.Port}" : $"{settings.Host}:{settings.Port}";
        Tube = settings.Tube;
        _timeoutMs = (long)settings.Timeout.TotalMilliseconds;
        Ttr = TimeSpan.FromSeconds(Math.Ceiling(settings.Ttr.TotalSeconds));
        _connector = new BeanstalkdConnector(settings, Endpoint, new BeanstalkdCommandWriter(settings.Tube, settings.Ttr));
    }

    /// <summary>The server's "host:port", for messages.</summary>
    public string Endpoint { get; }

    /// <summary>The tube this client puts into, reserves from and counts.</summary>
    public string Tube { get; }

    /// <summary>The time-to-run of the jobs this client puts, in whole seconds (<see cref="BeanstalkdClientOptions.Ttr"/>).</summary>
    public TimeSpan Ttr { get; }

    /// <summary>
    /// Puts one job (priority 1024, no delay, time-to-run <see cref="BeanstalkdClientOptions.Ttr"/>)
    /// and returns its id. The body may be any bytes; beanstalkd refuses one over its size limit
    /// (-z, 65 535 bytes by default) with JOB_TOO_BIG.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<ulong> PutAsync(ReadOnlyMemory<byte> body, CancellationToken cancellationToken = default) =>
        (await CallAsync(BeanstalkdCommand.Put, 0, body, cancellationToken).ConfigureAwait(false)).Number;

    /// <summary>
    /// Reserves the next ready job without waiting (<c>reserve-with-timeout 0</c>); null when none
    /// is ready. The job stays reserved by this client until it is deleted or released (or its
    /// time-to-run ends, or the connection is lost: see the class's remarks on at-least-once).
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<BeanstalkdJob?> ReserveAsync(CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var deadline = Environment.TickCount64 + _timeoutMs;
        var connection = await _connector.GetAsync(deadline, cancellationToken).ConfigureAwait(false);
        var reply = await connection.SendAsync(BeanstalkdCommand.Reserve, 0, default, deadline, cancellationToken).ConfigureAwait(false);
        return reply.Body is null ? null : new BeanstalkdJob(reply.Number, reply.Body) { ReservedOn = connection };
    }

    /// <summary>
    /// Deletes a job: one this client reserved, or any ready one. NOT_FOUND (no such job, or
    /// reserved by another connection) is a <see cref="BeanstalkdProtocolException"/>.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask DeleteAsync(ulong id, CancellationToken cancellationToken = default) =>
        await CallAsync(BeanstalkdCommand.Delete, id, default, cancellationToken).ConfigureAwait(false);

    /// <summary>
    /// Deletes a job this client reserved, on the connection that reserved it. False when the
    /// reservation is over: that connection has closed (beanstalkd then put the job back to ready,
    /// and it may be reserved again, even by this client: a delete sent elsewhere could take that
    /// newer reservation's job), or the server no longer knows it as this connection's (NOT_FOUND:
    /// its time-to-run ran out). A <see cref="BeanstalkdUnavailableException"/> means the connection
    /// failed before the reply: the delete may or may not have happened, and the reservation is over.
    /// </summary>
    public ValueTask<bool> DeleteReservedAsync(BeanstalkdJob job, CancellationToken cancellationToken = default) =>
        OnReservationAsync(BeanstalkdCommand.Delete, job, cancellationToken);

    /// <summary>
    /// Puts a job this client reserved back to ready (<c>release</c>, same priority, no delay), on the
    /// connection that reserved it; false and failures as for <see cref="DeleteReservedAsync"/>.
    /// </summary>
    public ValueTask<bool> ReleaseAsync(BeanstalkdJob job, CancellationToken cancellationToken = default) =>
        OnReservationAsync(BeanstalkdCommand.Release, job, cancellationToken);

    /// <summary>
    /// Starts the time-to-run of a job this client reserved again (<c>touch</c>), on the connection
    /// that reserved it, so the server does not hand it out meanwhile; false and failures as for
    /// <see cref="DeleteReservedAsync"/>.
    /// </summary>
    public ValueTask<bool> TouchAsync(BeanstalkdJob job, CancellationToken cancellationToken = default) =>
        OnReservationAsync(BeanstalkdCommand.Touch, job, cancellationToken);

    /// <summary>
    /// How many jobs of the tube are ready (<c>stats-tube</c>, current-jobs-ready); 0 while the
    /// tube does not exist (beanstalkd creates a tube when it is first used or watched and drops
    /// it when nobody uses, watches or fills it).
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<long> ReadyCountAsync(CancellationToken cancellationToken = default)
    {
        var reply = await CallAsync(BeanstalkdCommand.StatsTube, 0, default, cancellationToken).ConfigureAwait(false);
        return (long)Math.Min(reply.Number, long.MaxValue);
    }

    /// <summary>One cheap round trip (<c>list-tube-used</c>), for health checks; connects if need be.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask PingAsync(CancellationToken cancellationToken = default) =>
        await CallAsync(BeanstalkdCommand.ListTubeUsed, 0, default, cancellationToken).ConfigureAwait(false);

    /// <summary>Whether the client holds an open connection now.</summary>
    public bool IsConnected => _connector.IsConnected;

    /// <summary>
    /// Keeps a connection open until <paramref name="stoppingToken"/> or disposal: connects at once, and after
    /// a loss reconnects following a jittered pause, retrying while attempts fail. Optional: without it the
    /// client connects when a call needs it.
    /// </summary>
    public Task RunAsync(CancellationToken stoppingToken) => _connector.RunAsync(stoppingToken);

    /// <summary>Closes the connection: calls still waiting fail with <see cref="BeanstalkdUnavailableException"/>, later ones with <see cref="ObjectDisposedException"/>.</summary>
    public ValueTask DisposeAsync() => _connector.DisposeAsync();

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<bool> OnReservationAsync(BeanstalkdCommand command, BeanstalkdJob job, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(job);
        cancellationToken.ThrowIfCancellationRequested();
        if (job.ReservedOn is not { IsOpen: true } connection) return false;
        try
        {
            await connection.SendAsync(command, job.Id, default, Environment.TickCount64 + _timeoutMs, cancellationToken).ConfigureAwait(false);
            return true;
        }
        catch (BeanstalkdProtocolException e) when (e.Reply == "NOT_FOUND")
        {
            return false;
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<BeanstalkdReply> CallAsync(BeanstalkdCommand command, ulong id, ReadOnlyMemory<byte> body,
        CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var deadline = Environment.TickCount64 + _timeoutMs;
        var connection = await _connector.GetAsync(deadline, cancellationToken).ConfigureAwait(false);
        return await connection.SendAsync(command, id, body.Span, deadline, cancellationToken).ConfigureAwait(false);
    }
}
