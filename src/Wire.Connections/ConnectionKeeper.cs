namespace Wire.Connections;

/// <summary>
/// Keeps a client's one connection: opens it, and a new one when it breaks. Attempts are shared — whoever
/// needs a connection first starts one and everyone else waits for the same — and never overlap. After a
/// failed attempt nobody tries again for a pause (<see cref="ReconnectBackoff"/>: jittered, doubling up to
/// its cap, reset by a success), so a server that is down is not hammered and costs its callers nothing.
/// <para>
/// Two ways to use it, and a client may use both. <see cref="RunAsync"/> is the background loop (a hosted
/// service runs it): after a loss it waits one backoff pause and reconnects, retrying while attempts fail,
/// so the connection is back before anyone needs it. <see cref="ConnectAsync"/> is on demand: a caller that
/// finds no open connection starts (or joins) an attempt unless a pause is in effect, and waits for it no
/// longer than its own deadline. The fast path is <see cref="Current"/>: one volatile read.
/// </para>
/// </summary>
public sealed class ConnectionKeeper<TConnection> : IAsyncDisposable, IDisposable
    where TConnection : class, IKeptConnection
{
    private readonly Func<CancellationToken, Task<TConnection>> _open;
    private readonly IConnectionObserver<TConnection>? _observer;
    private readonly ReconnectBackoff _backoff;
    private readonly Lock _lock = new();
    private readonly CancellationTokenSource _disposing = new();
    private volatile TConnection? _current;
    private Task<ConnectOutcome<TConnection>>? _connecting;
    private Exception? _lastError;
    private long _retryAt;
    private bool _disposed;

    /// <param name="open">Opens one connection, bounded by its own connect timeout; the token ends it when the keeper is disposed.</param>
    /// <param name="backoff">The pauses after failed attempts and before reconnecting after a loss.</param>
    /// <param name="observer">Told of connects, failed attempts and losses (for the log); may be null.</param>
    public ConnectionKeeper(Func<CancellationToken, Task<TConnection>> open, ReconnectBackoff backoff,
        IConnectionObserver<TConnection>? observer = null)
    {
        _open = open;
        _backoff = backoff;
        _observer = observer;
    }

    /// <summary>The latest connection, open or broken, or null before the first success (check <see cref="IKeptConnection.IsOpen"/>).</summary>
    public TConnection? Current => _current;

    public bool IsConnected => _current?.IsOpen == true;

    /// <summary>One attempt (or the one in progress), whatever the pause; false when it failed.</summary>
    public async Task<bool> TryConnectAsync(CancellationToken cancellationToken)
    {
        Task<ConnectOutcome<TConnection>> attempt;
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_current is { IsOpen: true }) return true;
            attempt = _connecting ??= Task.Run(AttemptAsync);
        }
        return (await attempt.WaitAsync(cancellationToken).ConfigureAwait(false)).Connection is not null;
    }

    /// <summary>
    /// The open connection, or a new one opened by <paramref name="deadline"/> (<see cref="Environment.TickCount64"/>);
    /// without one, the outcome says why. Throws <see cref="ObjectDisposedException"/> once disposed.
    /// </summary>
    public ValueTask<ConnectOutcome<TConnection>> ConnectAsync(long deadline, CancellationToken cancellationToken)
    {
        var current = _current;
        return current is { IsOpen: true } ? new(Connected(current)) : WaitForAttemptAsync(deadline, cancellationToken);
    }

    /// <summary>
    /// Keeps a connection open until <paramref name="stoppingToken"/> or disposal: reconnects one backoff pause
    /// after a loss, and again after each pause while attempts fail.
    /// </summary>
    public async Task RunAsync(CancellationToken stoppingToken)
    {
        using var stopping = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken, _disposing.Token);
        var token = stopping.Token;
        try
        {
            while (!token.IsCancellationRequested)
            {
                if (_current is { IsOpen: true } connection)
                {
                    await connection.Closed.WaitAsync(token).ConfigureAwait(false);
                    _observer?.ConnectionLost();
                    TimeSpan pause;
                    lock (_lock) pause = _backoff.Next();
                    await Task.Delay(pause, token).ConfigureAwait(false);
                    continue;
                }
                Task<ConnectOutcome<TConnection>>? attempt = null;
                long pauseMs;
                lock (_lock)
                {
                    if (_disposed) return;
                    pauseMs = _connecting is null ? _retryAt - Environment.TickCount64 : 0;
                    if (pauseMs <= 0) attempt = _connecting ??= Task.Run(AttemptAsync);
                }
                if (attempt is null) await Task.Delay(TimeSpan.FromMilliseconds(pauseMs), token).ConfigureAwait(false);
                else await attempt.WaitAsync(token).ConfigureAwait(false); // a failure set the pause waited above next time
            }
        }
        catch (OperationCanceledException) when (token.IsCancellationRequested)
        {
            // Stopping.
        }
    }

    /// <summary>Ends the loop and an attempt in progress, and closes the connection: waiting calls fail.</summary>
    public async ValueTask DisposeAsync()
    {
        if (BeginDispose() is { } current) await current.DisposeAsync().ConfigureAwait(false);
    }

    public void Dispose() => BeginDispose()?.Dispose();

    private TConnection? BeginDispose()
    {
        TConnection? current;
        lock (_lock)
        {
            if (_disposed) return null;
            _disposed = true;
            current = _current;
            _current = null;
        }
        _disposing.Cancel(); // ends an attempt in progress and the loop
        return current;
    }

    private async ValueTask<ConnectOutcome<TConnection>> WaitForAttemptAsync(long deadline, CancellationToken cancellationToken)
    {
        Task<ConnectOutcome<TConnection>> attempt;
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_current is { IsOpen: true } current) return Connected(current);
            if (_connecting is null)
            {
                var wait = _retryAt - Environment.TickCount64;
                if (wait > 0) return new(null, ConnectFailure.Paused, _lastError, wait);
                // Run apart from this caller: the attempt is shared, and must not finish inside this lock.
                _connecting = Task.Run(AttemptAsync);
            }
            attempt = _connecting;
        }
        var remaining = Math.Max(deadline - Environment.TickCount64, 0);
        try
        {
            return await attempt.WaitAsync(TimeSpan.FromMilliseconds(remaining), cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException ex)
        {
            return new(null, ConnectFailure.TimedOut, ex, 0);
        }
    }

    /// <summary>One attempt; never throws, so that nobody waiting for it any more leaves an unobserved exception.</summary>
    private async Task<ConnectOutcome<TConnection>> AttemptAsync()
    {
        try
        {
            var connection = await _open(_disposing.Token).ConfigureAwait(false);
            TConnection? previous;
            bool disposed;
            lock (_lock)
            {
                disposed = _disposed;
                previous = disposed ? null : _current;
                if (!disposed)
                {
                    _current = connection;
                    _retryAt = 0;
                    _backoff.Reset();
                }
                _connecting = null;
            }
            if (disposed)
            {
                await connection.DisposeAsync().ConfigureAwait(false);
                return new(null, ConnectFailure.Failed, new ObjectDisposedException(GetType().Name), 0);
            }
            if (previous is not null) await previous.DisposeAsync().ConfigureAwait(false);
            _observer?.Connected(connection);
            return Connected(connection);
        }
        catch (Exception ex)
        {
            bool disposed;
            lock (_lock)
            {
                disposed = _disposed;
                _lastError = ex;
                _retryAt = Environment.TickCount64 + (long)_backoff.Next().TotalMilliseconds;
                _connecting = null;
            }
            if (!disposed) _observer?.ConnectFailed(ex);
            return new(null, ConnectFailure.Failed, ex, 0);
        }
    }

    private static ConnectOutcome<TConnection> Connected(TConnection connection) => new(connection, ConnectFailure.None, null, 0);
}
