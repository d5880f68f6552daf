using System.Collections.Frozen;
using IntegrationService.Storage.Tarantool.Iproto;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// The service's one Tarantool client: holds the current <see cref="IprotoConnection"/>, replaces it
/// when it breaks (<see cref="RunAsync"/>, driven by <see cref="TarantoolConnectionService"/>), and
/// puts <see cref="TarantoolOptions.RequestTimeoutMs"/> on every request. While disconnected, requests
/// fail at once with <see cref="StorageUnavailableException"/> rather than queueing behind a reconnect.
/// This is the one place where the client's <see cref="IprotoUnavailableException"/> becomes the
/// service's <see cref="StorageUnavailableException"/>; a server's <see cref="IprotoServerException"/> passes through.
/// </summary>
public sealed partial class TarantoolConnection(IOptions<TarantoolOptions> options, ILogger<TarantoolConnection> logger)
    : IAsyncDisposable, IDisposable
{
    private const uint VSpaceId = 281; // the _vspace system view: every space the user may see

    private readonly TarantoolOptions _options = options.Value;
    private readonly TimeSpan _timeout = TimeSpan.FromMilliseconds(options.Value.RequestTimeoutMs);
    private readonly IprotoConnectionOptions _connectionOptions = new(options.Value.Host, options.Value.Port,
        options.Value.User, options.Value.Password,
        PingInterval: TimeSpan.FromMilliseconds(options.Value.PingIntervalMs),
        PingTimeout: TimeSpan.FromMilliseconds(options.Value.RequestTimeoutMs));
    private volatile IprotoConnection? _current;
    private volatile FrozenDictionary<string, uint> _spaces = FrozenDictionary<string, uint>.Empty;

    public bool IsConnected => _current?.IsOpen == true;

    /// <summary>Requests in flight and requests that timed out, for /metrics.</summary>
    public BackendActivity Activity { get; } = new("tarantool");

    /// <summary>One connection attempt bounded by ConnectTimeoutMs; false (logged) when it failed.</summary>
    public async Task<bool> TryConnectAsync(CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_options.ConnectTimeoutMs);
        IprotoConnection? connection = null;
        try
        {
            connection = await IprotoConnection.OpenAsync(_connectionOptions, timeout.Token)
                .ConfigureAwait(false);
            _spaces = await LoadSpacesAsync(connection, timeout.Token).ConfigureAwait(false);
            var previous = _current;
            _current = connection;
            if (previous is not null) await previous.DisposeAsync().ConfigureAwait(false);
            LogConnected(_options.Host, _options.Port, connection.Greeting.Version);
            return true;
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            if (connection is not null) await connection.DisposeAsync().ConfigureAwait(false);
            LogConnectFailed(_options.Host, _options.Port, ex.Message);
            return false;
        }
    }

    /// <summary>
    /// Keeps a connection open until <paramref name="stoppingToken"/>, reconnecting after a pause that
    /// starts at ReconnectDelayMs and grows up to MaxReconnectDelayMs while attempts keep failing.
    /// </summary>
    public async Task RunAsync(CancellationToken stoppingToken)
    {
        var backoff = new ReconnectBackoff(TimeSpan.FromMilliseconds(_options.ReconnectDelayMs),
            TimeSpan.FromMilliseconds(_options.MaxReconnectDelayMs), Random.Shared);
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                if (_current is { IsOpen: true } connection)
                {
                    await connection.Closed.WaitAsync(stoppingToken).ConfigureAwait(false);
                    LogConnectionLost(_options.Host, _options.Port);
                }
                else if (await TryConnectAsync(stoppingToken).ConfigureAwait(false))
                {
                    backoff.Reset();
                    continue;
                }
                await Task.Delay(backoff.Next(), stoppingToken).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Shutting down.
        }
    }

    /// <summary>Sends one request on the current connection; see <see cref="IprotoConnection.SendAsync{TState}"/>.</summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        CancellationToken cancellationToken) => SendAsync(code, state, writeBody, _timeout, cancellationToken);

    /// <summary>As above with a timeout other than RequestTimeoutMs (bulk loads).</summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        TimeSpan timeout, CancellationToken cancellationToken)
    {
        var connection = _current;
        if (connection is null || !connection.IsOpen)
        {
            return Task.FromException<IprotoResponse>(new StorageUnavailableException("tarantool", "not connected"));
        }
        return TranslateUnavailable(connection.SendAsync(code, state, writeBody, timeout, cancellationToken));
    }

    /// <summary>
    /// The id of a space by name. A space created after we connected (init.lua creates spaces after
    /// it starts listening) is found by reloading the list once.
    /// </summary>
    public async ValueTask<uint> GetSpaceIdAsync(string name, CancellationToken cancellationToken)
    {
        if (_spaces.TryGetValue(name, out var id)) return id;
        var connection = _current;
        if (connection is null || !connection.IsOpen) throw new StorageUnavailableException("tarantool", "not connected");
        _spaces = await LoadSpacesAsync(connection, cancellationToken).ConfigureAwait(false);
        return _spaces.TryGetValue(name, out id)
            ? id
            : throw new InvalidOperationException($"Tarantool has no space '{name}': was infra/config/tarantool/init.lua run?");
    }

    public async ValueTask DisposeAsync()
    {
        if (_current is { } connection) await connection.DisposeAsync().ConfigureAwait(false);
    }

    public void Dispose() => _current?.Dispose();

    private async Task<FrozenDictionary<string, uint>> LoadSpacesAsync(IprotoConnection connection, CancellationToken cancellationToken)
    {
        using var response = await TranslateUnavailable(
            connection.SendAsync(IprotoCode.Select, VSpaceId, IprotoBody.WriteSelectAll, _timeout, cancellationToken)).ConfigureAwait(false);
        return ReadSpaces(response);
    }

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
            if (IsTimeout(ex)) Activity.CountTimeout();
            throw new StorageUnavailableException("tarantool", ex.Message, ex);
        }
        finally
        {
            Activity.End();
        }
    }

    private static bool IsTimeout(IprotoUnavailableException e) => e.Reason == IprotoUnavailableReason.Timeout;

    private static FrozenDictionary<string, uint> ReadSpaces(IprotoResponse response)
    {
        // _vspace tuples: {id, owner, name, engine, field_count, flags, format}.
        var spaces = new Dictionary<string, uint>();
        var reader = response.ReadData();
        var count = reader.ReadArrayHeader();
        for (var i = 0; i < count; i++)
        {
            var fields = reader.ReadArrayHeader();
            var id = (uint)reader.ReadUInt64();
            reader.Skip();
            spaces[reader.ReadString() ?? ""] = id;
            for (var f = 3; f < fields; f++) reader.Skip();
        }
        return spaces.ToFrozenDictionary();
    }

    [LoggerMessage(LogLevel.Information, "Connected to Tarantool at {Host}:{Port} ({Version})")]
    private partial void LogConnected(string host, int port, string version);

    [LoggerMessage(LogLevel.Warning, "Cannot connect to Tarantool at {Host}:{Port}: {Reason}; retrying")]
    private partial void LogConnectFailed(string host, int port, string reason);

    [LoggerMessage(LogLevel.Warning, "Lost the connection to Tarantool at {Host}:{Port}; reconnecting")]
    private partial void LogConnectionLost(string host, int port);
}
