using System.Collections.Frozen;
using Microsoft.Extensions.Logging;

namespace Tarantool.Iproto;

/// <summary>
/// A Tarantool client for a service: holds the current <see cref="IprotoConnection"/>, replaces it
/// when it breaks (<see cref="RunAsync"/>, which the owner runs in the background), puts
/// <see cref="IprotoClientOptions.RequestTimeout"/> on every request and knows the spaces by name.
/// While disconnected, requests fail at once with <see cref="IprotoUnavailableException"/>
/// (<see cref="IprotoUnavailableReason.NotConnected"/>) rather than queueing behind a reconnect.
/// </summary>
public sealed partial class IprotoClient(IprotoClientOptions options, ILogger<IprotoClient> logger)
    : IAsyncDisposable, IDisposable
{
    private const uint VSpaceId = 281; // the _vspace system view: every space the user may see

    private readonly string _host = options.Connection.Host;
    private readonly int _port = options.Connection.Port;
    private volatile IprotoConnection? _current;
    private volatile FrozenDictionary<string, uint> _spaces = FrozenDictionary<string, uint>.Empty;

    public IprotoClientOptions Options { get; } = options;

    public bool IsConnected => _current?.IsOpen == true;

    /// <summary>One connection attempt bounded by <see cref="IprotoClientOptions.ConnectTimeout"/>; false (logged) when it failed.</summary>
    public async Task<bool> TryConnectAsync(CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(Options.ConnectTimeout);
        IprotoConnection? connection = null;
        try
        {
            connection = await IprotoConnection.OpenAsync(Options.Connection, timeout.Token).ConfigureAwait(false);
            _spaces = await LoadSpacesAsync(connection, timeout.Token).ConfigureAwait(false);
            var previous = _current;
            _current = connection;
            if (previous is not null) await previous.DisposeAsync().ConfigureAwait(false);
            LogConnected(_host, _port, connection.Greeting.Version);
            return true;
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            if (connection is not null) await connection.DisposeAsync().ConfigureAwait(false);
            LogConnectFailed(_host, _port, ex.Message);
            return false;
        }
    }

    /// <summary>
    /// Keeps a connection open until <paramref name="stoppingToken"/>, reconnecting after a pause that
    /// starts at ReconnectDelay and grows up to MaxReconnectDelay while attempts keep failing.
    /// </summary>
    public async Task RunAsync(CancellationToken stoppingToken)
    {
        var backoff = new ReconnectBackoff(Options.ReconnectDelay, Options.MaxReconnectDelay, Random.Shared);
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                if (_current is { IsOpen: true } connection)
                {
                    await connection.Closed.WaitAsync(stoppingToken).ConfigureAwait(false);
                    LogConnectionLost(_host, _port);
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

    /// <summary>Sends one request on the current connection with the client's RequestTimeout; see <see cref="IprotoConnection.SendAsync{TState}"/>.</summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        CancellationToken cancellationToken) => SendAsync(code, state, writeBody, Options.RequestTimeout, cancellationToken);

    /// <summary>As above with another timeout (bulk loads).</summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        TimeSpan timeout, CancellationToken cancellationToken)
    {
        var connection = _current;
        if (connection is null || !connection.IsOpen) return Task.FromException<IprotoResponse>(NotConnected());
        return connection.SendAsync(code, state, writeBody, timeout, cancellationToken);
    }

    /// <summary>The id of a space by name if the list loaded at connect time has it (no I/O).</summary>
    public bool TryGetCachedSpaceId(string name, out uint id) => _spaces.TryGetValue(name, out id);

    /// <summary>
    /// The id of a space by name. A space created after we connected (init.lua creates spaces after
    /// it starts listening) is found by reloading the list once.
    /// </summary>
    public async ValueTask<uint> GetSpaceIdAsync(string name, CancellationToken cancellationToken)
    {
        if (_spaces.TryGetValue(name, out var id)) return id;
        var connection = _current;
        if (connection is null || !connection.IsOpen) throw NotConnected();
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

    private static IprotoUnavailableException NotConnected() =>
        new(IprotoUnavailableReason.NotConnected, "not connected");

    private async Task<FrozenDictionary<string, uint>> LoadSpacesAsync(IprotoConnection connection, CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Select, VSpaceId, IprotoBody.WriteSelectAll,
            Options.RequestTimeout, cancellationToken).ConfigureAwait(false);
        return ReadSpaces(response);
    }

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
