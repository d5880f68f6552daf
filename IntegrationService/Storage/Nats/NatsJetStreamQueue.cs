using NATS.Client.Core;
using NATS.Client.JetStream;
using NATS.Client.JetStream.Models;

namespace IntegrationService.Storage.Nats;

/// <summary>
/// One NATS connection (to one server, or to any node of a cluster) and the queue's JetStream objects: a stream with file storage and
/// work-queue retention (a message is deleted once acknowledged) and a durable pull consumer with
/// explicit acks. The connection is opened on first use and reconnects by itself, from the first
/// attempt on; while it is not open, calls fail at once. The stream and the consumer are created
/// (or updated) on first use and again after a failure, so a server that lost them gets them back.
/// Each call runs under a deadline (Nats:TimeoutMs); failures become <see cref="StorageUnavailableException"/>.
/// </summary>
public sealed class NatsJetStreamQueue : IAsyncDisposable
{
    /// <summary>The single server's name (health check, script/services).</summary>
    public const string BackendName = "nats";

    /// <summary>The three-node cluster's name (health check, script/services).</summary>
    public const string R3BackendName = "nats-r3";

    private readonly NatsOptions _options;
    private readonly string _url;
    private readonly int _replicas;
    private readonly NatsConnection _connection;
    private readonly NatsJSContext _js;
    private readonly SemaphoreSlim _ensuring = new(1, 1);
    private readonly Lazy<Task> _firstConnect;
    private long _firstConnectStartedMs;
    private INatsJSConsumer? _consumer;

    /// <summary>How many nodes hold the stream.</summary>
    public int Replicas => _replicas;

    /// <summary>The single server's queue (Nats:Url), its stream on one replica.</summary>
    public NatsJetStreamQueue(NatsOptions options) : this(options, BackendName, options.Url, 1)
    {
    }

    /// <param name="options">The queue's settings (stream, consumer, deadlines).</param>
    /// <param name="name">The backend's name, in 503 answers and the health check.</param>
    /// <param name="url">The server's URL, or the cluster's nodes' separated by commas.</param>
    /// <param name="replicas">How many nodes hold the stream (it is created so).</param>
    public NatsJetStreamQueue(NatsOptions options, string name, string url, int replicas)
    {
        _options = options;
        _url = url;
        _replicas = replicas;
        Name = name;
        var timeout = TimeSpan.FromMilliseconds(options.TimeoutMs);
        _connection = new NatsConnection(new NatsOpts
        {
            Url = url,
            Name = "IntegrationService",
            ConnectTimeout = timeout,
            RequestTimeout = timeout,
            CommandTimeout = timeout,
            RetryOnInitialConnect = true,
            MaxReconnectRetry = -1,
            ReconnectWaitMin = TimeSpan.FromMilliseconds(500),
            ReconnectWaitMax = TimeSpan.FromSeconds(2),
            // While disconnected a publish fails after CommandTimeout instead of waiting for the reconnect.
            PublishTimeoutOnDisconnected = true,
            // On a cluster, a node that stops answering (stopped, hung) is given up after two unanswered pings,
            // one per deadline, and the client reconnects to another: the default (2 minutes) kept nats-r3's client
            // on a frozen node for the whole stop, though another node led the stream within seconds. A single
            // server keeps the default: there is no other node to go to.
            PingInterval = replicas > 1 ? timeout : NatsOpts.Default.PingInterval,
            MaxPingOut = replicas > 1 ? 2 : NatsOpts.Default.MaxPingOut,
        });
        _js = new NatsJSContext(_connection);
        _firstConnect = new(ConnectAsync);
    }

    /// <summary>Starts the first connection attempt without waiting for it (at the service's start, and on first use).</summary>
    public void StartConnecting() => _ = _firstConnect.Value;

    /// <summary>The backend's name: <see cref="BackendName"/> or <see cref="R3BackendName"/>.</summary>
    public string Name { get; }

    public string Subject => _options.Subject;

    /// <summary>The stream that holds the queue (Nats:Stream).</summary>
    public string Stream => _options.Stream;

    public INatsJSContext JetStream => _js;

    /// <summary>How long the consumer holds a fetched message for its ack (Nats:AckWaitSeconds).</summary>
    public TimeSpan AckWait => TimeSpan.FromSeconds(_options.AckWaitSeconds);

    /// <summary>How many takes of <c>GET /read</c> may run at once (Nats:QueueTakesInFlight).</summary>
    public int QueueTakesInFlight => _options.QueueTakesInFlight;

    /// <summary>Runs one call with the queue's consumer, within the deadline.</summary>
    public async Task<T> RunAsync<T>(Func<INatsJSConsumer, CancellationToken, Task<T>> call)
    {
        using var deadline = new CancellationTokenSource(_options.TimeoutMs);
        try
        {
            var firstConnect = _firstConnect.Value;
            // A call that arrives while the first attempt is under way waits for it, within its deadline;
            // later, while the connection is down, calls fail at once.
            if (!firstConnect.IsCompleted && Environment.TickCount64 - Volatile.Read(ref _firstConnectStartedMs) < _options.TimeoutMs)
            {
                await firstConnect.WaitAsync(deadline.Token);
            }
            var consumer = await ConsumerAsync(deadline.Token);
            return await call(consumer, deadline.Token);
        }
        catch (Exception e) when (IsUnavailable(e))
        {
            // The stream or the consumer may be gone (a server with a new store): check them again next time.
            _consumer = null;
            throw Unavailable(e, deadline.Token);
        }
    }

    /// <summary>The broker's failure <paramref name="e"/> of a call under <paramref name="deadline"/>, as a 503.</summary>
    internal StorageUnavailableException Unavailable(Exception e, CancellationToken deadline) =>
        new(Name, deadline.IsCancellationRequested || e is TimeoutException ? $"no answer within {_options.TimeoutMs} ms" : e.Message, e);

    private async Task<INatsJSConsumer> ConsumerAsync(CancellationToken cancellationToken)
    {
        if (_connection.ConnectionState != NatsConnectionState.Open)
        {
            throw new StorageUnavailableException(Name, $"not connected to {_url} ({_connection.ConnectionState})");
        }
        if (_consumer is { } ready) return ready;
        await _ensuring.WaitAsync(cancellationToken);
        try
        {
            if (_consumer is { } again) return again;
            await _js.CreateOrUpdateStreamAsync(new StreamConfig(_options.Stream, [_options.Subject])
            {
                Storage = StreamConfigStorage.File,
                Retention = StreamConfigRetention.Workqueue,
                // A full stream refuses writes (503) rather than dropping messages.
                Discard = StreamConfigDiscard.New,
                MaxBytes = 1L << 30,
                NumReplicas = _replicas,
            }, cancellationToken);
            return _consumer = await _js.CreateOrUpdateConsumerAsync(_options.Stream, new ConsumerConfig(_options.Consumer)
            {
                AckPolicy = ConsumerConfigAckPolicy.Explicit,
                AckWait = TimeSpan.FromSeconds(_options.AckWaitSeconds),
            }, cancellationToken);
        }
        finally
        {
            _ensuring.Release();
        }
    }

    /// <summary>
    /// The first connection attempt, then the stream and the consumer, so the first requests find
    /// them ready. When it fails, the client keeps retrying by itself (RetryOnInitialConnect) and
    /// the first call after it connects creates them.
    /// </summary>
    private async Task ConnectAsync()
    {
        Volatile.Write(ref _firstConnectStartedMs, Environment.TickCount64);
        try
        {
            await _connection.ConnectAsync();
            using var deadline = new CancellationTokenSource(_options.TimeoutMs);
            await ConsumerAsync(deadline.Token);
        }
        catch (Exception e) when (IsUnavailable(e) || e is StorageUnavailableException)
        {
        }
    }

    /// <summary>The broker's failure (503), not a bug (500): <see cref="BrokerFailure"/>.</summary>
    internal static bool IsUnavailable(Exception e) => BrokerFailure.Is(e, "NATS.Client");

    public async ValueTask DisposeAsync()
    {
        await _connection.DisposeAsync();
        _ensuring.Dispose();
    }
}
