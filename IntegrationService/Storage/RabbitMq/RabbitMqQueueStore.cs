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
/// </summary>
public sealed class RabbitMqQueueStore(RabbitMqConnection connection) : IQueueStore
{
    private readonly MessageIdClock _ids = new(TimeProvider.System);

    public Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        var id = _ids.Next();
        var properties = new BasicProperties
        {
            MessageId = id.ToString(CultureInfo.InvariantCulture),
            ContentType = "application/json",
            Persistent = true,
        };
        return connection.RunAsync(async (channel, deadline) =>
        {
            await channel.BasicPublishAsync("", connection.Queue, mandatory: true, properties, message, deadline);
            return id;
        });
    }

    public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) =>
        connection.RunAsync(async (channel, deadline) =>
        {
            var got = await channel.BasicGetAsync(connection.Queue, autoAck: false, deadline);
            if (got is null) return null;
            var message = new QueueMessage(Id(got.BasicProperties.MessageId), got.Body.ToArray());
            await channel.BasicAckAsync(got.DeliveryTag, multiple: false, deadline);
            return message;
        });

    /// <summary>Messages ready to be read (those handed out and not yet acknowledged are not counted).</summary>
    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        connection.RunAsync(async (channel, deadline) =>
            (long)(await channel.QueueDeclarePassiveAsync(connection.Queue, deadline)).MessageCount);

    /// <summary>queue.purge: the ready messages go (those handed out and not yet acknowledged stay, as the broker purges).</summary>
    public Task<long> PurgeAsync(CancellationToken cancellationToken) =>
        connection.RunAsync(async (channel, deadline) => (long)await channel.QueuePurgeAsync(connection.Queue, deadline));

    /// <summary>The id this service gave the message; 0 for one published by someone else without one.</summary>
    private static long Id(string? messageId) =>
        long.TryParse(messageId, NumberStyles.None, CultureInfo.InvariantCulture, out var id) ? id : 0;
}
