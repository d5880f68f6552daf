using System.Globalization;
using IntegrationService.Queues;
using RabbitMQ.Client;

namespace IntegrationService.Storage.RabbitMq;

/// <summary>
/// The queue in a RabbitMQ quorum queue. A write publishes to it (default exchange, mandatory)
/// and awaits the publisher confirm, which the broker sends once the message is in the queue's
/// Raft log on disk; a read is basic.get without auto-ack, then basic.ack once the message is in
/// hand. If the ack is lost (the service dies, the connection breaks, the call times out), the
/// broker hands the message out again when the channel closes: at least once, never lost. The
/// broker numbers nothing, so the service gives each message its id (<see cref="MessageIdClock"/>)
/// in the message-id property.
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
    private readonly RabbitMqConnection _connection;
    private readonly MessageIdClock _ids = new(TimeProvider.System);
    private readonly RabbitMqLeaseChannel _leaseChannel;
    private readonly LeaseBook<RabbitMqDelivery, RabbitMqDelivery> _leases;

    public RabbitMqQueueStore(RabbitMqConnection connection, ILogger<RabbitMqQueueStore> logger)
    {
        _connection = connection;
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

    public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) =>
        _connection.RunAsync(async (channel, deadline) =>
        {
            var got = await channel.BasicGetAsync(_connection.Queue, autoAck: false, deadline);
            if (got is null) return null;
            var message = new QueueMessage(Id(got.BasicProperties.MessageId), got.Body.ToArray());
            await channel.BasicAckAsync(got.DeliveryTag, multiple: false, deadline);
            return message;
        });

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
