using System.Globalization;
using IntegrationService.Queues;
using RabbitMQ.Client;

namespace IntegrationService.Storage.RabbitMq;

/// <summary>
/// The queue in a RabbitMQ quorum queue. A write publishes to it (default exchange, mandatory)
/// and awaits the publisher confirm, which the broker sends once the message is in the queue's
/// Raft log on disk. A read is basic.get without auto-ack, then basic.ack once the message is in
/// hand, sent before the read answers. The broker numbers nothing, so the service gives each
/// message its id (<see cref="MessageIdClock"/>) in the message-id property.
/// <para>
/// <b>Reads that arrive together share one take</b> (<see cref="QueueTakeBatcher{T}"/>): at most
/// RabbitMq:QueueTakesInFlight takes run at once, each on a channel of its own, and the reads that
/// arrive meanwhile are served by the next one, up to <see cref="MaxBatch"/>: a basic.get per read
/// waiting, one after another on the take's channel, until one finds the queue empty, then one
/// basic.ack with multiple set for the last delivery tag, which acknowledges them all, sent before
/// any of those reads answers. Each read gets one message, oldest first to the read that came first.
/// If a get or the ack fails, every read of the take answers 503 and the channel is closed, so the
/// broker requeues what the take got (<see cref="RabbitMqConnection.RunAsync{T}"/>): a message is
/// handed to a reader only after its ack was sent. An ack has no answer in AMQP 0-9-1: if the
/// connection breaks after the ack was written and before the broker read it, the broker requeues
/// messages already answered (every message of the take, where it was one read's before takes), so
/// at most once holds as far as a written ack arrives.
/// </para>
/// <para>
/// On a quorum queue the multiple ack saves frames, not Raft commands: each basic.get is a consumer
/// of its own in the queue's state machine (its delivery tag is its consumer tag), so the broker
/// settles each message of a multiple ack with a command of its own, as it does each single ack.
/// A take saves an ack frame and a channel per read, not the broker's two commands per message.
/// A take never sees a leased message (the broker hands out ready messages only), and its channel
/// holds no delivery once the take is over: it was acknowledged, or the channel closed.
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
    /// One take on <paramref name="channel"/>, which holds no other unacknowledged delivery: basic.get
    /// without auto-ack until <paramref name="count"/> messages or the queue is empty, then one
    /// basic.ack of the last delivery tag with multiple set; returns the messages oldest first. It
    /// throws if a get or the ack fails, leaving the channel for its caller to close (which requeues
    /// what it got).
    /// </summary>
    internal static async Task<IReadOnlyList<QueueMessage>> TakeAsync(IChannel channel, string queue, int count, CancellationToken deadline)
    {
        var taken = new List<QueueMessage>(count);
        var last = 0UL;
        while (taken.Count < count && await channel.BasicGetAsync(queue, autoAck: false, deadline) is { } got)
        {
            taken.Add(new QueueMessage(Id(got.BasicProperties.MessageId), got.Body.ToArray()));
            last = got.DeliveryTag;
        }
        if (taken.Count > 0) await channel.BasicAckAsync(last, multiple: true, deadline);
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
