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
/// <para>
/// <b>The leased read is a message awaiting its ack</b> on the same consumer: a lease fetches one
/// message without acking it, an ack is a double ack and a nack a -NAK (delivered again at once).
/// The rule: <i>a lease lives as long as the consumer holds its message for it.</i> When the lease
/// ends unacknowledged the service naks it (within <see cref="LeaseBook{TMessage, TDelivery}.SweepInterval"/>).
/// The consumer holds a fetched message for its ack wait (Nats:AckWaitSeconds, 30 s), shorter than
/// the longest lease: a lease that outlasts it is kept with in-progress acks (+WPI) every third of
/// it. If those fail until the ack wait lapses (the connection is down, nats-server restarts), the
/// receipt is refused, as the server may have delivered the message again; a newer delivery of the
/// same stream sequence ends the older lease. If the service dies, nobody naks its leases: the
/// server delivers each message again once its ack wait runs out after the last in-progress ack.
/// </para>
/// </summary>
public sealed class NatsQueueStore : IQueueStore, IAsyncDisposable
{
    private static readonly INatsSerializer<ReadOnlyMemory<byte>> Publishing = NatsRawSerializer<ReadOnlyMemory<byte>>.Default;
    private static readonly INatsDeserialize<byte[]> Fetching = NatsRawSerializer<byte[]>.Default;
    // No wait: an empty consumer answers at once. The server may still hold a no-wait request when
    // it counted a message as pending that another reader's request then took; the expiry ends such
    // a request within the call's deadline (the read answers 204) instead of letting it run into it.
    private static readonly NatsJSFetchOpts OneMessage = new() { MaxMsgs = 1, Expires = TimeSpan.FromSeconds(1) };
    private static readonly AckOpts DoubleAck = new() { DoubleAck = true };

    private readonly NatsJetStreamQueue _queue;
    private readonly LeaseBook<ulong, INatsJSMsg<byte[]>> _leases;

    public NatsQueueStore(NatsJetStreamQueue queue, ILogger<NatsQueueStore> logger)
    {
        _queue = queue;
        _leases = new(NakAsync, new LeaseHold<INatsJSMsg<byte[]>>(queue.AckWait, AckProgressAsync), TimeProvider.System, logger);
        _leases.Start();
    }

    public Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken) =>
        _queue.RunAsync(async (_, deadline) =>
        {
            var ack = await _queue.JetStream.PublishAsync(_queue.Subject, message, Publishing, cancellationToken: deadline);
            ack.EnsureSuccess();
            return checked((long)ack.Seq);
        });

    public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) =>
        _queue.RunAsync(async (consumer, deadline) =>
        {
            await foreach (var message in consumer.FetchNoWaitAsync(OneMessage, Fetching, deadline))
            {
                await message.AckAsync(DoubleAck, deadline);
                return new QueueMessage(checked((long)message.Metadata!.Value.Sequence.Stream), message.Data ?? []);
            }
            return null;
        });

    public async Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken)
    {
        var takenAt = _leases.Now;
        return await _queue.RunAsync(async (consumer, deadline) =>
        {
            await foreach (var message in consumer.FetchNoWaitAsync(OneMessage, Fetching, deadline))
            {
                var sequence = message.Metadata!.Value.Sequence.Stream;
                return new LeasedMessage(checked((long)sequence), message.Data ?? [], _leases.Add(sequence, message, lease, takenAt));
            }
            return null;
        });
    }

    /// <summary>A double ack; a failure is a 503 and spends the receipt (if the ack was lost, the message comes back after the ack wait).</summary>
    public async Task<bool> AckAsync(string receipt, CancellationToken cancellationToken)
    {
        if (!_leases.TryEnd(receipt, out var message)) return false;
        await _queue.RunAsync(async (_, deadline) =>
        {
            await message.AckAsync(DoubleAck, deadline);
            return true;
        });
        return true;
    }

    /// <summary>A -NAK (sent, not confirmed: nats-server need not answer one); a failure is a 503 and spends the receipt (the message comes back after the ack wait).</summary>
    public async Task<bool> NackAsync(string receipt, CancellationToken cancellationToken)
    {
        if (!_leases.TryEnd(receipt, out var message)) return false;
        await NakAsync(message);
        return true;
    }

    private Task NakAsync(INatsJSMsg<byte[]> message) =>
        _queue.RunAsync(async (_, deadline) =>
        {
            await message.NakAsync(cancellationToken: deadline);
            return true;
        });

    /// <summary>+WPI: the consumer's ack wait starts again for the message (sent, not confirmed).</summary>
    private Task<bool> AckProgressAsync(INatsJSMsg<byte[]> message) =>
        _queue.RunAsync(async (_, deadline) =>
        {
            await message.AckProgressAsync(cancellationToken: deadline);
            return true;
        });

    /// <summary>Messages not yet handed out by the consumer (those fetched and not yet acknowledged are not counted).</summary>
    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        _queue.RunAsync(async (consumer, deadline) =>
        {
            await consumer.RefreshAsync(deadline);
            return checked((long)consumer.Info.NumPending);
        });

    /// <summary>
    /// A stream purge of the queue's subject (a stream that captures other subjects keeps their
    /// messages); the consumer then has nothing pending, fetched-and-unacknowledged messages included.
    /// </summary>
    public Task<long> PurgeAsync(CancellationToken cancellationToken) =>
        _queue.RunAsync(async (_, deadline) =>
        {
            var purged = await _queue.JetStream.PurgeStreamAsync(_queue.Stream, new StreamPurgeRequest { Filter = _queue.Subject }, deadline);
            return checked((long)purged.Purged);
        });

    public ValueTask DisposeAsync() => _leases.DisposeAsync();
}
