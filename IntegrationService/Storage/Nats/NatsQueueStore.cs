using IntegrationService.Queues;
using NATS.Client.Core;
using NATS.Client.JetStream;
using NATS.Client.JetStream.Models;

namespace IntegrationService.Storage.Nats;

/// <summary>
/// The queue in a JetStream stream. A write publishes to the stream's subject and awaits the
/// PubAck, whose stream sequence is the message's id; a read fetches one message from the durable
/// pull consumer without waiting (none: 204) and acks it, waiting for the server to confirm the
/// ack (double ack). If the ack is lost (the service dies, the connection breaks), the server hands
/// the message out again after the consumer's ack wait: at least once, never lost.
/// </summary>
public sealed class NatsQueueStore(NatsJetStreamQueue queue) : IQueueStore
{
    private static readonly INatsSerializer<ReadOnlyMemory<byte>> Publishing = NatsRawSerializer<ReadOnlyMemory<byte>>.Default;
    private static readonly INatsDeserialize<byte[]> Fetching = NatsRawSerializer<byte[]>.Default;
    // No wait: an empty consumer answers at once. The server may still hold a no-wait request when
    // it counted a message as pending that another reader's request then took; the expiry ends such
    // a request within the call's deadline (the read answers 204) instead of letting it run into it.
    private static readonly NatsJSFetchOpts OneMessage = new() { MaxMsgs = 1, Expires = TimeSpan.FromSeconds(1) };
    private static readonly AckOpts DoubleAck = new() { DoubleAck = true };

    public Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken) =>
        queue.RunAsync(async (_, deadline) =>
        {
            var ack = await queue.JetStream.PublishAsync(queue.Subject, message, Publishing, cancellationToken: deadline);
            ack.EnsureSuccess();
            return checked((long)ack.Seq);
        });

    public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) =>
        queue.RunAsync(async (consumer, deadline) =>
        {
            await foreach (var message in consumer.FetchNoWaitAsync(OneMessage, Fetching, deadline))
            {
                await message.AckAsync(DoubleAck, deadline);
                return new QueueMessage(checked((long)message.Metadata!.Value.Sequence.Stream), message.Data ?? []);
            }
            return null;
        });

    /// <summary>Messages not yet handed out by the consumer (those fetched and not yet acknowledged are not counted).</summary>
    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        queue.RunAsync(async (consumer, deadline) =>
        {
            await consumer.RefreshAsync(deadline);
            return checked((long)consumer.Info.NumPending);
        });

    /// <summary>
    /// A stream purge of the queue's subject (a stream that captures other subjects keeps their
    /// messages); the consumer then has nothing pending, fetched-and-unacknowledged messages included.
    /// </summary>
    public Task<long> PurgeAsync(CancellationToken cancellationToken) =>
        queue.RunAsync(async (_, deadline) =>
        {
            var purged = await queue.JetStream.PurgeStreamAsync(queue.Stream, new StreamPurgeRequest { Filter = queue.Subject }, deadline);
            return checked((long)purged.Purged);
        });
}
