using System.Collections.Frozen;
using Microsoft.Extensions.Logging;
using Wire.Connections;

namespace Tarantool.Iproto;

/// <summary>
/// A Tarantool client for a service: one <see cref="IprotoConnection"/> kept open by a
/// <see cref="ConnectionKeeper{TConnection}"/> (its loop, <see cref="RunAsync"/>, is the owner's to run in
/// the background), <see cref="IprotoClientOptions.RequestTimeout"/> on every request, and the spaces by name.
/// While disconnected, requests fail at once with <see cref="IprotoUnavailableException"/>
/// (<see cref="IprotoUnavailableReason.NotConnected"/>) rather than queueing behind a reconnect.
/// </summary>
public sealed class IprotoClient : IAsyncDisposable, IDisposable
{
    private const uint VSpaceId = 281; // the _vspace system view: every space the user may see

    private readonly ConnectionKeeper<IprotoConnection> _keeper;
    private volatile FrozenDictionary<string, uint> _spaces = FrozenDictionary<string, uint>.Empty;

    public IprotoClient(IprotoClientOptions options, ILogger<IprotoClient> logger)
    {
        Options = options;
        _keeper = new ConnectionKeeper<IprotoConnection>(OpenAsync,
            new ReconnectBackoff(options.ReconnectDelay, options.MaxReconnectDelay, Random.Shared),
            new IprotoClientLog(logger, options.Connection.Host, options.Connection.Port));
    }

    public IprotoClientOptions Options { get; }

    public bool IsConnected => _keeper.IsConnected;

    /// <summary>One connection attempt bounded by <see cref="IprotoClientOptions.ConnectTimeout"/> (true at once if connected); false (logged) when it failed.</summary>
    public Task<bool> TryConnectAsync(CancellationToken cancellationToken) => _keeper.TryConnectAsync(cancellationToken);

    /// <summary>
    /// Keeps a connection open until <paramref name="stoppingToken"/>, reconnecting after a jittered pause that
    /// starts at ReconnectDelay and grows up to MaxReconnectDelay while attempts keep failing.
    /// </summary>
    public Task RunAsync(CancellationToken stoppingToken) => _keeper.RunAsync(stoppingToken);

    /// <summary>Sends one request on the current connection with the client's RequestTimeout; see <see cref="IprotoConnection.SendAsync{TState}"/>.</summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        CancellationToken cancellationToken) => SendAsync(code, state, writeBody, Options.RequestTimeout, cancellationToken);

    /// <summary>As above with another timeout (bulk loads).</summary>
    public Task<IprotoResponse> SendAsync<TState>(IprotoCode code, TState state, IprotoBodyWriter<TState>? writeBody,
        TimeSpan timeout, CancellationToken cancellationToken)
    {
        var connection = _keeper.Current;
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
        var connection = _keeper.Current;
        if (connection is null || !connection.IsOpen) throw NotConnected();
        _spaces = await LoadSpacesAsync(connection, cancellationToken).ConfigureAwait(false);
        return _spaces.TryGetValue(name, out id)
            ? id
            : throw new InvalidOperationException($"Tarantool has no space '{name}': was infra/config/tarantool/init.lua run?");
    }

    public ValueTask DisposeAsync() => _keeper.DisposeAsync();

    public void Dispose() => _keeper.Dispose();

    private static IprotoUnavailableException NotConnected() =>
        new(IprotoUnavailableReason.NotConnected, "not connected");

    /// <summary>One connection attempt for the keeper: connect, greet, authenticate, load the spaces.</summary>
    private async Task<IprotoConnection> OpenAsync(CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(Options.ConnectTimeout);
        var connection = await IprotoConnection.OpenAsync(Options.Connection, timeout.Token).ConfigureAwait(false);
        try
        {
            _spaces = await LoadSpacesAsync(connection, timeout.Token).ConfigureAwait(false);
            return connection;
        }
        catch
        {
            await connection.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

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
}
