using StackExchange.Redis;

namespace IntegrationService.Storage.Redis;

/// <summary>
/// One Redis server: a multiplexer (pipelining every caller over one socket, reconnecting by
/// itself) and a deadline on every call, since this client version does not time out async
/// calls on its own.
/// </summary>
public sealed class RedisConnection(string name, string endpoint, string? password, TimeSpan timeout) : IAsyncDisposable
{
    private ConnectionMultiplexer? _multiplexer;

    /// <summary>The backend's name in errors and health, e.g. "redis-cache".</summary>
    public string Name { get; } = name;

    internal async Task ConnectAsync()
    {
        var options = ConfigurationOptions.Parse(endpoint);
        options.Password = password;
        options.AbortOnConnectFail = false; // start even if Redis is down; connect when it comes
        options.ConnectTimeout = (int)timeout.TotalMilliseconds;
        options.SyncTimeout = (int)timeout.TotalMilliseconds;
        options.ConnectRetry = 1;
        options.KeepAlive = 10;
        options.ClientName = "IntegrationService";
        var multiplexer = await ConnectionMultiplexer.ConnectAsync(options);
        // 1.x runs every continuation in order on one dedicated thread by default; the request
        // pipeline must not queue behind it (it halved write throughput of the cache architecture).
        multiplexer.PreserveAsyncOrder = false;
        _multiplexer = multiplexer;
    }

    /// <summary>Runs one call with the deadline; failures become <see cref="StorageUnavailableException"/>.</summary>
    public async Task<T> RunAsync<T>(Func<IDatabase, Task<T>> call)
    {
        var multiplexer = _multiplexer ?? throw new StorageUnavailableException(Name, "not connected yet");
        try
        {
            return await call(multiplexer.GetDatabase()).WaitAsync(timeout);
        }
        catch (Exception e) when (e is RedisException or TimeoutException)
        {
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
