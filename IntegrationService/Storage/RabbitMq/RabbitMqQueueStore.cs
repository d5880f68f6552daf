using System.Globalization;
using IntegrationService.Queues;
using RabbitMQ.Client;

namespace IntegrationService.Storage.RabbitMq;

/// <summary>
/// The queue in a RabbitMQ quorum queue. A write publishes to it (default exchange, mandatory)
/// and awaits the publisher confirm, which the broker sends once the message is in the queue's
/// Raft log on disk. GET /read is basic.get with auto-ack: the broker removes the message as it
/// sends it, so a read whose answer is lost (between the broker and the service, or the service and
/// its client) loses its message and none is handed out twice — at most once, the path's promise,
/// in one Raft command per read. (A get without auto-ack and a later ack is two commands on a quorum
/// queue, each basic.get being a consumer of its own in the queue's state machine, even when one
/// multiple ack covers several; and an AMQP ack has no answer, so an ack lost with its connection
/// would requeue a message already answered: a duplicate.) The broker numbers nothing, so the
/// service gives each message its id (<see cref="MessageIdClock"/>) in the message-id property.
/// <para>
/// <b>Reads that arrive together share one take</b> (<see cref="QueueTakeBatcher{T}"/>): at most
/// RabbitMq:QueueTakesInFlight takes run at once, each on a channel of its own, and the reads that
/// arrive meanwhile are served by the next one, up to <see cref="MaxBatch"/>: a basic.get per read
/// waiting, one after another on the take's channel, until one finds the queue empty. Each read
/// gets one message, oldest first to the read that came first. If a get fails after others
/// succeeded, the take hands out what it got (those messages are off the queue already) and its
/// other reads answer 204; if the first fails, every read of the take answers 503. A take never
/// sees a leased message (the broker hands out ready messages only).
/// </para>
/// <para>
/// <b>The leased read is an unacknowledged delivery</b> on a channel the service keeps for leases
/// (<see cref="RabbitMqLeaseChannel"/>): a lease is basic.get without auto-ack, an ack is basic.ack
/// and a nack basic.nack with requeue, on that channel with its delivery tag. The rule: <i>a lease
/// lives as long as its delivery stays unacknowledged on the channel that received it.</i> When the
/// lease ends unacknowledged the service nacks it (within <see cref="LeaseBook{TMessage, TDelivery}.SweepInterval"/>);
/// the broker holds a delivery for as long as the channel stays open (up to its delivery
/// acknowledgement timeout, 30 minutes, twice the longest lease). When the channel or the
/// connection closes — the service dies, the network fails, RabbitMQ restarts — the broker requeues
/// every delivery of that channel at once, and their receipts are refused: an ack goes on the
/// channel that received the delivery or nowhere, never with its tag on another channel.
/// </para>
/// </summary>
public sealed class RabbitMqQueueStore : IQueueStore, IAsyncDisposable
{
    /// <summary>
    /// Most reads one take serves: its gets are round trips one after another (a channel runs one
    /// call at a time), each a Raft command, and none of its reads answers before the last.
    /// </summary>
    public const int MaxBatch = 16;

    private readonly RabbitMqConnection _connection;
    private readonly MessageIdClock _ids = new(TimeProvider.System);
    private readonly RabbitMqLeaseChannel _leaseChannel;
    private readonly LeaseBook<RabbitMqDelivery, RabbitMqDelivery> _leases;
    private readonly QueueTakeBatcher<QueueMessage> _takes;

    public RabbitMqQueueStore(RabbitMqConnection connection, ILogger<RabbitMqQueueStore> logger)
    {
        _connection = connection;
        _takes = new QueueTakeBatcher<QueueMessage>(TakeAsync, connection.QueueTakesInFlight, MaxBatch);
        _leaseChannel = new RabbitMqLeaseChannel(connection);
        // A delivery is its own identity: one redelivered after its channel closed is a new lease of a new channel's.
        _leases = new(_leaseChannel.NackAsync, hold: null, TimeProvider.System, logger);
        _leases.Start();
    }

    public Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        var id = _ids.Next();
        var properties = new BasicProperties
        {
            MessageId = id.ToString(CultureInfo.InvariantCulture),
            ContentType = "application/json",
            Persistent = true,
        };
        return _connection.RunAsync(async (channel, deadline) =>
        {
            await channel.BasicPublishAsync("", _connection.Queue, mandatory: true, properties, message, deadline);
            return id;
        });
    }

    public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) => _takes.TakeOneAsync();

    private Task<IReadOnlyList<QueueMessage>> TakeAsync(int count) =>
        _connection.RunAsync((channel, deadline) => TakeAsync(channel, _connection.Queue, count, deadline));

    /// <summary>
    /// One take on <paramref name="channel"/>: basic.get with auto-ack until <paramref name="count"/>
    /// messages or the queue is empty; returns the messages oldest first. A get that fails after
    /// others succeeded ends the take with what it got (they are off the queue: not handing them out
    /// would lose them for nothing); a first get that fails throws, for its caller's 503.
    /// </summary>
    internal static async Task<IReadOnlyList<QueueMessage>> TakeAsync(IChannel channel, string queue, int count, CancellationToken deadline)
    {
        var taken = new List<QueueMessage>(count);
        while (taken.Count < count)
        {
            BasicGetResult? got;
            try
            {
                got = await channel.BasicGetAsync(queue, autoAck: true, deadline);
            }
            catch (Exception e) when (taken.Count > 0 && RabbitMqConnection.IsUnavailable(e))
            {
                break;
            }
            if (got is null) break;
            taken.Add(new QueueMessage(Id(got.BasicProperties.MessageId), got.Body.ToArray()));
        }
        return taken;
    }

    public async Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken)
    {
        var takenAt = _leases.Now;
        if (await _leaseChannel.GetAsync() is not { } got) return null;
        return new LeasedMessage(Id(got.MessageId), got.Body, _leases.Add(got.Delivery, got.Delivery, lease, takenAt));
    }

    /// <summary>basic.ack on the delivery's channel; a failure is a 503 and spends the receipt (the channel is closed, so the message is acknowledged or requeued).</summary>
    public async Task<bool> AckAsync(string receipt, CancellationToken cancellationToken) =>
        _leases.TryEnd(receipt, out var delivery) && await _leaseChannel.AckAsync(delivery);

    /// <summary>basic.nack with requeue on the delivery's channel; a failure is a 503 and spends the receipt (the channel is closed: the message is requeued).</summary>
    public async Task<bool> NackAsync(string receipt, CancellationToken cancellationToken) =>
        _leases.TryEnd(receipt, out var delivery) && await _leaseChannel.NackAsync(delivery);

    /// <summary>Messages ready to be read (those handed out and not yet acknowledged are not counted).</summary>
    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        _connection.RunAsync(async (channel, deadline) =>
            (long)(await channel.QueueDeclarePassiveAsync(_connection.Queue, deadline)).MessageCount);

    /// <summary>queue.purge: the ready messages go (those handed out and not yet acknowledged stay, as the broker purges).</summary>
    public Task<long> PurgeAsync(CancellationToken cancellationToken) =>
        _connection.RunAsync(async (channel, deadline) => (long)await channel.QueuePurgeAsync(_connection.Queue, deadline));

    /// <summary>The id this service gave the message; 0 for one published by someone else without one.</summary>
    private static long Id(string? messageId) =>
        long.TryParse(messageId, NumberStyles.None, CultureInfo.InvariantCulture, out var id) ? id : 0;

    public async ValueTask DisposeAsync()
    {
        await _leases.DisposeAsync();
        await _leaseChannel.DisposeAsync();
    }
}
