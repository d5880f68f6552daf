namespace Beanstalkd.Client;

/// <summary>
/// Keeps the client's one <see cref="BeanstalkdConnection"/>: opens it on the first call, and
/// again on the first call after it broke. Calls that find no connection share one attempt and
/// wait for it no longer than their own deadline. After a failed attempt, calls fail at once for
/// a pause (<see cref="BeanstalkdClientOptions.ReconnectDelay"/>, doubling up to
/// <see cref="BeanstalkdClientOptions.MaxReconnectDelay"/>) rather than each trying again, so a
/// server that is down costs its callers nothing and is not hammered.
/// </summary>
internal sealed class BeanstalkdConnector(BeanstalkdClientOptions options, string endpoint, BeanstalkdCommandWriter commands)
    : IAsyncDisposable
{
    private readonly Lock _lock = new();
    private readonly CancellationTokenSource _disposing = new();
    private BeanstalkdConnection? _current;
    private Task<Attempt>? _connecting;
    private Exception? _lastFailure;
    private int _failures;
    private long _retryAt;
    private bool _disposed;

    /// <summary>
    /// The open connection, or a new one; <see cref="BeanstalkdUnavailableException"/> when none
    /// can be had by <paramref name="deadline"/> (<see cref="Environment.TickCount64"/>).
    /// </summary>
    public ValueTask<BeanstalkdConnection> GetAsync(long deadline, CancellationToken cancellationToken)
    {
        var current = Volatile.Read(ref _current);
        return current is { IsOpen: true } ? new(current) : ConnectAsync(deadline, cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        BeanstalkdConnection? current;
        lock (_lock)
        {
            if (_disposed) return;
            _disposed = true;
            current = _current;
            _current = null;
        }
        await _disposing.CancelAsync().ConfigureAwait(false); // ends an attempt in progress
        if (current is not null) await current.DisposeAsync().ConfigureAwait(false);
    }

    private async ValueTask<BeanstalkdConnection> ConnectAsync(long deadline, CancellationToken cancellationToken)
    {
        Task<Attempt> attempt;
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, typeof(BeanstalkdClient));
            if (_current is { IsOpen: true } current) return current;
            if (_connecting is null)
            {
                var wait = _retryAt - Environment.TickCount64;
                if (wait > 0)
                {
                    throw new BeanstalkdUnavailableException(endpoint,
                        $"cannot connect ({Describe(_lastFailure)}); next attempt in {wait} ms", _lastFailure);
                }
                // Run apart from this caller: the attempt is shared, and must not finish inside this lock.
                _connecting = Task.Run(OpenAsync);
            }
            attempt = _connecting;
        }

        var remaining = deadline - Environment.TickCount64;
        Attempt result;
        try
        {
            result = await attempt.WaitAsync(TimeSpan.FromMilliseconds(Math.Max(remaining, 0)), cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException ex)
        {
            throw new BeanstalkdUnavailableException(endpoint,
                $"no connection within the call's timeout ({options.Timeout.TotalMilliseconds:0} ms)", ex);
        }
        return result.Connection ?? throw new BeanstalkdUnavailableException(endpoint,
            $"cannot connect ({Describe(result.Failure)})", result.Failure);
    }

    /// <summary>One connection attempt; never throws, so that nobody waiting for it any more leaves an unobserved exception.</summary>
    private async Task<Attempt> OpenAsync()
    {
        try
        {
            var connection = await BeanstalkdConnection.OpenAsync(options, endpoint, commands, _disposing.Token).ConfigureAwait(false);
            bool disposed;
            lock (_lock)
            {
                disposed = _disposed;
                if (!disposed)
                {
                    _current = connection;
                    _failures = 0;
                    _retryAt = 0;
                }
                _connecting = null;
            }
            if (!disposed) return new Attempt(connection, null);
            await connection.DisposeAsync().ConfigureAwait(false);
            return new Attempt(null, new ObjectDisposedException(nameof(BeanstalkdClient)));
        }
        catch (Exception ex)
        {
            lock (_lock)
            {
                _lastFailure = ex;
                _failures++;
                _retryAt = Environment.TickCount64 + (long)Backoff(_failures).TotalMilliseconds;
                _connecting = null;
            }
            return new Attempt(null, ex);
        }
    }

    private static string? Describe(Exception? failure) => failure is BeanstalkdException own ? own.Detail : failure?.Message;

    private TimeSpan Backoff(int failures)
    {
        var delay = options.ReconnectDelay * Math.Pow(2, Math.Min(failures - 1, 16));
        return delay < options.MaxReconnectDelay ? delay : options.MaxReconnectDelay;
    }

    /// <summary>The outcome of one attempt: a connection, or why there is none.</summary>
    private readonly record struct Attempt(BeanstalkdConnection? Connection, Exception? Failure);
}
