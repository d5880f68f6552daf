using StackExchange.Redis;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// One Redis server: a multiplexer that pipelines every caller over one socket, reconnects by
/// itself and times out each call (Redis:TimeoutMs), failing at once while disconnected instead of
/// queueing. This class only translates the client's failures into
/// <see cref="StorageUnavailableException"/>.
/// </summary>
public sealed class RedisConnection(string name, string endpoint, string? password, TimeSpan timeout) : IAsyncDisposable
{
    private ConnectionMultiplexer? _multiplexer;

    /// <summary>The backend's name in errors and health, e.g. "redis-cache".</summary>
    public string Name { get; } = name;

    /// <summary>Where it is: <c>host:port</c>, or several of them for a cluster (StackExchange.Redis's syntax).</summary>
    public string Endpoint { get; } = endpoint;

    /// <summary>Calls that timed out, for /metrics (calls in flight are read from the client: <see cref="InFlight"/>).</summary>
    public BackendActivity Activity { get; } = new(name);

    /// <summary>Commands the client has queued or sent and not yet had answered; read at scrape time.</summary>
    public long InFlight => _multiplexer?.GetCounters().TotalOutstanding ?? 0;

    internal async Task ConnectAsync()
    {
        var milliseconds = (int)timeout.TotalMilliseconds;
        var options = ConfigurationOptions.Parse(Endpoint);
        options.Password = password;
        options.AbortOnConnectFail = false; // start even if Redis is down; connect when it comes
        options.ConnectTimeout = milliseconds;
        options.SyncTimeout = milliseconds;
        options.AsyncTimeout = milliseconds;
        // The client looks for overdue calls on its heartbeat (1 s by default): a quarter of the
        // timeout keeps "no answer in time" close to the timeout itself.
        options.HeartbeatInterval = TimeSpan.FromMilliseconds(Math.Max(milliseconds / 4, 25));
        // While disconnected, fail calls at once (the request answers 503) rather than hold them
        // in a backlog until their timeout.
        options.BacklogPolicy = BacklogPolicy.FailFast;
        options.ConnectRetry = 1;
        options.KeepAlive = 10;
        options.ClientName = "IntegrationService";
        _multiplexer = await ConnectionMultiplexer.ConnectAsync(options);
    }

    /// <summary>Runs one call; the client's failures become <see cref="StorageUnavailableException"/>.</summary>
    public async Task<T> RunAsync<T>(Func<IDatabase, Task<T>> call)
    {
        var multiplexer = _multiplexer ?? throw new StorageUnavailableException(Name, "not connected yet");
        try
        {
            return await call(multiplexer.GetDatabase());
        }
        catch (Exception e) when (e is RedisException or TimeoutException)
        {
            if (e is TimeoutException) Activity.CountTimeout();
            throw new StorageUnavailableException(Name, e is TimeoutException ? "no answer in time" : e.Message, e);
        }
    }

    /// <summary>Sends without waiting for the answer (cache fills); failures are ignored.</summary>
    public void Send(Action<IDatabase> call)
    {
        if (_multiplexer is { IsConnected: true } multiplexer) call(multiplexer.GetDatabase());
    }

    public async ValueTask DisposeAsync()
    {
        if (_multiplexer is not null) await _multiplexer.CloseAsync();
    }
}
