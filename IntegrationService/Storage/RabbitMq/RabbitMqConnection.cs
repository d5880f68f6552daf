using System.Collections.Concurrent;
using System.Net.Sockets;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace IntegrationService.Storage.RabbitMq;

/// <summary>
/// One AMQP connection to the broker and a pool of its channels. The client's guidance: a
/// connection is long-lived and shared, a channel serves one caller at a time (its RPCs run one
/// after another). Each call rents a channel, runs under a deadline (RabbitMq:TimeoutMs) and gives
/// it back; a channel whose call failed or timed out is closed instead, since it may still owe an
/// answer or hold an unacknowledged message (closing returns that message to the queue). The
/// connection is opened on first use and, once open, recovered by the client itself (automatic
/// recovery, every second); meanwhile calls fail at once. A connection that can open no more
/// channels (numbers lost to timed-out openings) is replaced. Failures become
/// <see cref="StorageUnavailableException"/>.
/// </summary>
public sealed class RabbitMqConnection : IAsyncDisposable
{
    public const string BackendName = "rabbitmq";

    /// <summary>rabbitmq-r3: the same queue on a cluster of three nodes (RabbitMq:R3Endpoints).</summary>
    public const string R3BackendName = "rabbitmq-r3";

    private static readonly TimeSpan RetryInterval = TimeSpan.FromSeconds(1);

    private static readonly CreateChannelOptions ChannelOptions = new(
        publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true);

    private readonly RabbitMqOptions _options;
    private readonly ConnectionFactory _factory;
    private readonly ConcurrentBag<IChannel> _idle = [];
    private readonly SemaphoreSlim _connecting = new(1, 1);
    private readonly Dictionary<string, object?> _queueArguments = new() { ["x-queue-type"] = "quorum" };
    private readonly string _name;
    private readonly IReadOnlyList<AmqpTcpEndpoint> _endpoints;
    private IConnection? _connection;
    private long _nextAttemptMs;
    private string _lastFailure = "not connected yet";

    /// <summary>The broker of RabbitMq:Host and RabbitMq:Port, one node (<see cref="BackendName"/>).</summary>
    public RabbitMqConnection(RabbitMqOptions options)
        : this(options, BackendName, [new AmqpTcpEndpoint(options.Host, options.Port)], replicas: 1)
    {
    }

    /// <summary>
    /// A cluster named <paramref name="name"/>: the client is given every node of <paramref name="endpoints"/>, connects to
    /// one of them and, when that connection fails, recovers it on another (the client's endpoint list); the queue is
    /// declared with a member on each of <paramref name="replicas"/> nodes (x-quorum-initial-group-size).
    /// </summary>
    public RabbitMqConnection(RabbitMqOptions options, string name, IReadOnlyList<AmqpTcpEndpoint> endpoints, int replicas)
    {
        _options = options;
        _name = name;
        _endpoints = endpoints;
        if (replicas > 1) _queueArguments["x-quorum-initial-group-size"] = replicas;
        Activity = new(name);
        var timeout = TimeSpan.FromMilliseconds(options.TimeoutMs);
        _factory = new ConnectionFactory
        {
            UserName = options.User,
            Password = options.Password,
            VirtualHost = options.VirtualHost,
            ClientProvidedName = "IntegrationService",
            AutomaticRecoveryEnabled = true,
            TopologyRecoveryEnabled = true,
            NetworkRecoveryInterval = RetryInterval,
            RequestedConnectionTimeout = timeout,
            ContinuationTimeout = timeout,
            HandshakeContinuationTimeout = timeout,
            SocketReadTimeout = timeout,
            SocketWriteTimeout = timeout,
            // A broker that stops answering without closing the socket is noticed within this.
            RequestedHeartbeat = TimeSpan.FromSeconds(10),
            RequestedChannelMax = (ushort)options.ChannelMax,
        };
    }

    /// <summary>The queue's name (RabbitMq:Queue).</summary>
    public string Queue => _options.Queue;

    /// <summary>How many takes of <c>GET /read</c> may run at once (RabbitMq:QueueTakesInFlight).</summary>
    public int QueueTakesInFlight => _options.QueueTakesInFlight;

    /// <summary>Calls in flight and calls that ran out of time, for /metrics.</summary>
    public BackendActivity Activity { get; }

    /// <summary>Runs one call on a channel of its own, within the deadline.</summary>
    public async Task<T> RunAsync<T>(Func<IChannel, CancellationToken, Task<T>> call)
    {
        using var deadline = new CancellationTokenSource(_options.TimeoutMs);
        IChannel? channel = null;
        Activity.Begin();
        try
        {
            channel = await RentAsync(deadline.Token);
            var result = await call(channel, deadline.Token);
            Return(channel);
            channel = null;
            return result;
        }
        catch (Exception e) when (IsUnavailable(e))
        {
            throw Unavailable(e, deadline);
        }
        finally
        {
            Activity.End();
            if (channel is not null) _ = CloseAsync(channel);
        }
    }

    /// <summary>
    /// Runs one call within the deadline on a channel the caller keeps (<see cref="OpenChannelAsync"/>),
    /// its failures becoming <see cref="StorageUnavailableException"/> as in <see cref="RunAsync{T}"/>;
    /// what becomes of the channel after a failure is the caller's to decide.
    /// </summary>
    public async Task<T> RunOnOwnChannelAsync<T>(Func<CancellationToken, Task<T>> call)
    {
        using var deadline = new CancellationTokenSource(_options.TimeoutMs);
        Activity.Begin();
        try
        {
            return await call(deadline.Token);
        }
        catch (Exception e) when (IsUnavailable(e))
        {
            throw Unavailable(e, deadline);
        }
        finally
        {
            Activity.End();
        }
    }

    /// <summary>Closes a channel in the background (closing returns its unacknowledged messages to the queue).</summary>
    public void Close(IChannel channel) => _ = CloseAsync(channel);

    private StorageUnavailableException Unavailable(Exception e, CancellationTokenSource deadline)
    {
        var timedOut = deadline.IsCancellationRequested || e is TimeoutException;
        if (timedOut) Activity.CountTimeout();
        return new StorageUnavailableException(_name, timedOut ? $"no answer within {_options.TimeoutMs} ms" : e.Message, e);
    }

    private async Task<IChannel> RentAsync(CancellationToken cancellationToken)
    {
        while (_idle.TryTake(out var idle))
        {
            if (idle.IsOpen) return idle;
            _ = CloseAsync(idle);
        }
        return await OpenChannelAsync(cancellationToken);
    }

    /// <summary>
    /// Opens a channel on which the queue is declared. Not pooled: a caller that keeps it across
    /// calls (the leases') closes it with <see cref="Close"/>.
    /// </summary>
    public async Task<IChannel> OpenChannelAsync(CancellationToken cancellationToken)
    {
        var connection = await ConnectAsync(cancellationToken);
        if (!connection.IsOpen) throw new StorageUnavailableException(_name, $"connection lost, reconnecting: {connection.CloseReason?.ReplyText}");
        IChannel channel;
        try
        {
            channel = await connection.CreateChannelAsync(ChannelOptions, cancellationToken);
        }
        catch (ChannelAllocationException e)
        {
            // The client loses track of a channel whose opening timed out (rabbitmq-dotnet-client
            // issue 1573): its number stays taken on both sides. After ChannelMax of those the
            // connection can open no channel at all; closing it frees them all.
            Retire(connection);
            throw new StorageUnavailableException(_name, $"the connection has no channel left ({e.Message}); opening a new one", e);
        }
        try
        {
            // Idempotent: declares the queue if the broker lost it (a new data directory) or never had it.
            await channel.QueueDeclareAsync(_options.Queue, durable: true, exclusive: false, autoDelete: false,
                arguments: _queueArguments, cancellationToken: cancellationToken);
            return channel;
        }
        catch
        {
            _ = CloseAsync(channel);
            throw;
        }
    }

    private void Return(IChannel channel)
    {
        if (channel.IsOpen && _idle.Count < _options.MaxIdleChannels) _idle.Add(channel);
        else _ = CloseAsync(channel);
    }

    /// <summary>
    /// The connection, opened on first use. A failed attempt is not repeated for a second: calls
    /// meanwhile fail at once rather than each waiting for its own connection timeout.
    /// </summary>
    private async Task<IConnection> ConnectAsync(CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _connection) is { } open) return open;
        if (Environment.TickCount64 < Volatile.Read(ref _nextAttemptMs)) throw new StorageUnavailableException(_name, _lastFailure);
        await _connecting.WaitAsync(cancellationToken);
        try
        {
            if (_connection is { } connected) return connected;
            try
            {
                return _connection = await _factory.CreateConnectionAsync(_endpoints, cancellationToken);
            }
            catch (Exception e) when (IsUnavailable(e))
            {
                _lastFailure = $"cannot connect to {string.Join(", ", _endpoints.Select(endpoint => $"{endpoint.HostName}:{endpoint.Port}"))}: {e.Message}";
                Volatile.Write(ref _nextAttemptMs, Environment.TickCount64 + (long)RetryInterval.TotalMilliseconds);
                throw;
            }
        }
        finally
        {
            _connecting.Release();
        }
    }

    /// <summary>
    /// Stops handing out <paramref name="connection"/>: the next call opens a new connection, and
    /// this one is closed in the background (the broker then returns the unacknowledged messages of
    /// its channels to the queue). Calls still running on it fail as unavailable.
    /// </summary>
    private void Retire(IConnection connection)
    {
        if (Interlocked.CompareExchange(ref _connection, null, connection) == connection) _ = CloseAsync(connection);
    }

    /// <summary>Closes a retired connection, within the deadline; AbortAsync does not throw for the broker's failures.</summary>
    private async Task CloseAsync(IConnection connection)
    {
        try
        {
            await connection.AbortAsync(TimeSpan.FromMilliseconds(_options.TimeoutMs));
        }
        finally
        {
            await connection.DisposeAsync();
        }
    }

    /// <summary>Closes a channel in the background, within the deadline; it is being dropped, so failures do not matter.</summary>
    private async Task CloseAsync(IChannel channel)
    {
        try
        {
            using var deadline = new CancellationTokenSource(_options.TimeoutMs);
            await channel.CloseAsync(cancellationToken: deadline.Token);
        }
        catch (Exception e) when (IsUnavailable(e))
        {
        }
        finally
        {
            channel.Dispose();
        }
    }

    /// <summary>The broker's failure (503), not a bug (500): <see cref="BrokerFailure"/>.</summary>
    internal static bool IsUnavailable(Exception e) => BrokerFailure.Is(e, "RabbitMQ.Client");

    public async ValueTask DisposeAsync()
    {
        while (_idle.TryTake(out var channel)) channel.Dispose();
        if (_connection is not null) await _connection.DisposeAsync();
        _connecting.Dispose();
    }
}
