using Wire.Connections;

namespace Beanstalkd.Client;

/// <summary>
/// Keeps the client's one <see cref="BeanstalkdConnection"/> through a <see cref="ConnectionKeeper{TConnection}"/>:
/// a call that finds no open connection opens one (or joins the attempt in progress) and waits for it no
/// longer than its own deadline; after a failed attempt, calls fail at once for a pause
/// (<see cref="BeanstalkdClientOptions.ReconnectDelay"/>, doubling with jitter up to
/// <see cref="BeanstalkdClientOptions.MaxReconnectDelay"/>) rather than each trying again, so a server that is
/// down costs its callers nothing and is not hammered. <see cref="RunAsync"/>, when the owner runs it, also
/// reconnects in the background. This is where the keeper's outcomes become <see cref="BeanstalkdUnavailableException"/>.
/// </summary>
internal sealed class BeanstalkdConnector : IAsyncDisposable
{
    private readonly BeanstalkdClientOptions _options;
    private readonly string _endpoint;
    private readonly ConnectionKeeper<BeanstalkdConnection> _keeper;

    public BeanstalkdConnector(BeanstalkdClientOptions options, string endpoint, BeanstalkdCommandWriter commands)
    {
        _options = options;
        _endpoint = endpoint;
        _keeper = new ConnectionKeeper<BeanstalkdConnection>(
            token => BeanstalkdConnection.OpenAsync(options, endpoint, commands, token),
            new ReconnectBackoff(options.ReconnectDelay, options.MaxReconnectDelay, Random.Shared));
    }

    public bool IsConnected => _keeper.IsConnected;

    /// <summary>
    /// The open connection, or a new one; <see cref="BeanstalkdUnavailableException"/> when none
    /// can be had by <paramref name="deadline"/> (<see cref="Environment.TickCount64"/>).
    /// </summary>
    public ValueTask<BeanstalkdConnection> GetAsync(long deadline, CancellationToken cancellationToken)
    {
        var current = _keeper.Current;
        return current is { IsOpen: true } ? new(current) : ConnectAsync(deadline, cancellationToken);
    }

    /// <summary>Reconnects in the background until <paramref name="stoppingToken"/> (see <see cref="ConnectionKeeper{TConnection}.RunAsync"/>).</summary>
    public Task RunAsync(CancellationToken stoppingToken) => _keeper.RunAsync(stoppingToken);

    public ValueTask DisposeAsync() => _keeper.DisposeAsync();

    private async ValueTask<BeanstalkdConnection> ConnectAsync(long deadline, CancellationToken cancellationToken)
    {
        ConnectOutcome<BeanstalkdConnection> outcome;
        try
        {
            outcome = await _keeper.ConnectAsync(deadline, cancellationToken).ConfigureAwait(false);
        }
        catch (ObjectDisposedException)
        {
            throw new ObjectDisposedException(nameof(BeanstalkdClient));
        }
        return outcome.Failure switch
        {
            ConnectFailure.None => outcome.Connection!,
            ConnectFailure.Paused => throw new BeanstalkdUnavailableException(_endpoint,
                $"cannot connect ({Describe(outcome.Error)}); next attempt in {outcome.RetryInMs} ms", outcome.Error),
            ConnectFailure.TimedOut => throw new BeanstalkdUnavailableException(_endpoint,
                $"no connection within the call's timeout ({_options.Timeout.TotalMilliseconds:0} ms)", outcome.Error),
            _ => throw new BeanstalkdUnavailableException(_endpoint, $"cannot connect ({Describe(outcome.Error)})", outcome.Error),
        };
    }

    private static string? Describe(Exception? failure) => failure is BeanstalkdException own ? own.Detail : failure?.Message;
}
