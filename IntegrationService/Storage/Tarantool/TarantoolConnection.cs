using Microsoft.Extensions.Options;
using Tarantool.Iproto;

namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// The service's one Tarantool client: an <see cref="IprotoClient"/> built from <see cref="TarantoolOptions"/>,
/// kept connected by <see cref="TarantoolConnectionService"/>. This is the one place where the client's
/// <see cref="IprotoUnavailableException"/> becomes the service's <see cref="StorageUnavailableException"/>,
/// and so does a server's "not ready yet" (a function init.lua has not defined yet, a server still loading);
/// any other <see cref="IprotoServerException"/> passes through.
/// </summary>
public sealed class TarantoolConnection(IOptions<TarantoolOptions> options, ILogger<IprotoClient> logger)
    : IAsyncDisposable, IDisposable
{
    private readonly IprotoClient _client = new(ClientOptions(options.Value), logger);

    public bool IsConnected => _client.IsConnected;

    /// <summary>Requests in flight and requests that timed out, for /metrics.</summary>
    public BackendActivity Activity { get; } = new("tarantool");

    /// <summary>One connection attempt bounded by ConnectTimeoutMs; false (logged) when it failed.</summary>
    public Task<bool> TryConnectAsync(CancellationToken cancellationToken) => _client.TryConnectAsync(cancellationToken);

    /// <summary>Keeps a connection open until <paramref name="stoppingToken"/> (see <see cref="IprotoClient.RunAsync"/>).</summary>
    public Task RunAsync(CancellationToken stoppingToken) => _client.RunAsync(stoppingToken);

    /// <summary>Sends one request with RequestTimeoutMs; see <see cref="IprotoConnection.SendAsync{TState}"/>.</summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        CancellationToken cancellationToken) => TranslateUnavailable(_client.SendAsync(code, state, writeBody, cancellationToken));

    /// <summary>As above with a timeout other than RequestTimeoutMs (bulk loads).</summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        TimeSpan timeout, CancellationToken cancellationToken) =>
        TranslateUnavailable(_client.SendAsync(code, state, writeBody, timeout, cancellationToken));

    /// <summary>The id of a space by name (see <see cref="IprotoClient.GetSpaceIdAsync"/>).</summary>
    public ValueTask<uint> GetSpaceIdAsync(string name, CancellationToken cancellationToken) =>
        _client.TryGetCachedSpaceId(name, out var id) ? new(id) : LoadSpaceIdAsync(name, cancellationToken);

    public ValueTask DisposeAsync() => _client.DisposeAsync();

    public void Dispose() => _client.Dispose();

    private static IprotoClientOptions ClientOptions(TarantoolOptions options) => new(
        new IprotoConnectionOptions(options.Host, options.Port, options.User, options.Password,
            PingInterval: TimeSpan.FromMilliseconds(options.PingIntervalMs),
            PingTimeout: TimeSpan.FromMilliseconds(options.RequestTimeoutMs)),
        RequestTimeout: TimeSpan.FromMilliseconds(options.RequestTimeoutMs),
        ConnectTimeout: TimeSpan.FromMilliseconds(options.ConnectTimeoutMs),
        ReconnectDelay: TimeSpan.FromMilliseconds(options.ReconnectDelayMs),
        MaxReconnectDelay: TimeSpan.FromMilliseconds(options.MaxReconnectDelayMs));

    private async ValueTask<uint> LoadSpaceIdAsync(string name, CancellationToken cancellationToken)
    {
        try
        {
            return await _client.GetSpaceIdAsync(name, cancellationToken).ConfigureAwait(false);
        }
        catch (IprotoUnavailableException ex)
        {
            throw new StorageUnavailableException("tarantool", ex.Message, ex);
        }
    }

    // Tarantool's box error codes for "not ready yet": ER_NO_SUCH_PROC and ER_LOADING.
    private const int NoSuchProcedure = 33;
    private const int Loading = 116;

    /// <summary>Also counts the request in flight until it ends, and as a timeout if it got no answer in time (for /metrics).</summary>
    private async Task<IprotoResponse> TranslateUnavailable(Task<IprotoResponse> answer)
    {
        Activity.Begin();
        try
        {
            return await answer.ConfigureAwait(false);
        }
        catch (IprotoUnavailableException ex)
        {
            if (ex.Reason == IprotoUnavailableReason.Timeout) Activity.CountTimeout();
            throw new StorageUnavailableException("tarantool", ex.Message, ex);
        }
        catch (IprotoServerException ex) when (ex.ErrorCode is NoSuchProcedure or Loading)
        {
            // Right after a restart Tarantool answers before init.lua has defined the service's
            // functions (the vinyl queue's index of waiting ids takes seconds to rebuild): not ready yet.
            throw new StorageUnavailableException("tarantool", $"Tarantool is starting: {ex.Message}", ex);
        }
        finally
        {
            Activity.End();
        }
    }
}
