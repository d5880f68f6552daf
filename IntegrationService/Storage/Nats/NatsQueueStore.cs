using IntegrationService.Queues;
using NATS.Client.Core;
using NATS.Client.JetStream;
using NATS.Client.JetStream.Models;

namespace IntegrationService.Storage.Nats;

/// <summary>
/// The queue in a JetStream stream. A write publishes to the stream's subject and awaits the
/// PubAck, whose stream sequence is the message's id. A read takes a message from the durable pull
/// consumer without waiting (none: 204) and acks it, waiting for the server to confirm the ack
/// (double ack), before it answers.
/// <para>
/// <b>Reads that arrive together share one take</b> (<see cref="QueueTakeBatcher{T}"/>): at most
/// Nats:QueueTakesInFlight takes run at once, and the reads that arrive meanwhile are served by the
/// next one, up to <see cref="MaxBatch"/>: one no-wait fetch of as many messages as reads waiting
/// (one pull request and one inbox subscription, where each read used to make its own), then a
/// double ack of every message fetched, all sent at once and all awaited before any read is
/// answered. Each read gets one message, in the consumer's order, the first to the read that came
/// first. The takes fetch one at a time, and each sends its acks before the next fetches: nats-server
/// deals the messages of concurrent pull requests out in turn, and the acks of two takes, arriving out of
/// stream order, made it compact (rewrite) each 8-MB block of the stream before it emptied it. A
/// message whose ack failed is not handed out: its read answers 503 (the server may have deleted it,
/// if only the ack's answer was lost, or hands it out again after the consumer's ack wait), while the
/// reads whose acks were confirmed get theirs. So a message goes to a reader only once the server has
/// confirmed its deletion, and to one reader only. If the service dies between fetch and ack, the
/// server hands the fetched messages out again after the ack wait.
/// </para>
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
/// A take never holds a leased message: the consumer hands out only messages nobody holds.
/// </para>
/// </summary>
public sealed class NatsQueueStore : IQueueStore, IAsyncDisposable
{
    /// <summary>
    /// Most reads one take serves (one fetch of this many messages at most); with the takes in flight
    /// (<see cref="NatsOptions.QueueTakesInFlight"/>), well under the consumer's MaxAckPending.
    /// </summary>
    public const int MaxBatch = 64;

    private static readonly INatsSerializer<ReadOnlyMemory<byte>> Publishing = NatsRawSerializer<ReadOnlyMemory<byte>>.Default;
    private static readonly INatsDeserialize<byte[]> Fetching = NatsRawSerializer<byte[]>.Default;
    // No wait: an empty consumer answers at once (404), and a fetch that found messages ends right
    // after them (408). The server may still hold a no-wait request it let in because it counted
    // messages as pending that requests ahead of it (a take, a lease) then took: it waits for the next
    // message written. NATS.Net sends no expiry with a no-wait request (its own timer ends the fetch
    // 5 s after Expires, past the call's deadline), so a take gives up waiting after FetchExpiry itself:
    // its reads answer 204 within the deadline instead of 503 at it.
    private static readonly TimeSpan FetchExpiry = TimeSpan.FromSeconds(1);
    private static readonly NatsJSFetchOpts OneMessage = new() { MaxMsgs = 1, Expires = FetchExpiry };

    /// <summary>
    /// The pauses after which an empty fetch is asked again, on a replicated stream, before the queue is
    /// called empty (150 ms in all). The stream's leader acknowledges a write once most nodes stored it;
    /// the consumer's leader, when it is another node, sees the message a moment later, and a read right
    /// after the acknowledgement found the queue empty (a lease on nats-r3 answered 204 in CI).
    /// </summary>
    internal static readonly TimeSpan[] ReplicaCatchUp =
        [TimeSpan.FromMilliseconds(10), TimeSpan.FromMilliseconds(20), TimeSpan.FromMilliseconds(40), TimeSpan.FromMilliseconds(80)];
    private static readonly AckOpts DoubleAck = new() { DoubleAck = true };

    private readonly NatsJetStreamQueue _queue;
    private readonly IReadOnlyList<TimeSpan> _catchUp;
    private readonly QueueTakeBatcher<TakenRead> _takes;
    private readonly LeaseBook<ulong, INatsJSMsg<byte[]>> _leases;
    private readonly SemaphoreSlim _fetchesInOrder = new(1, 1);

    public NatsQueueStore(NatsJetStreamQueue queue, ILogger<NatsQueueStore> logger)
    {
        _queue = queue;
        _catchUp = queue.Replicas > 1 ? ReplicaCatchUp : [];
        _takes = new QueueTakeBatcher<TakenRead>(TakeAsync, queue.QueueTakesInFlight, MaxBatch);
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

    public async Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) =>
        (await _takes.TakeOneAsync())?.Answer();

    private Task<IReadOnlyList<TakenRead>> TakeAsync(int count) =>
        _queue.RunAsync((consumer, deadline) => TakeAsync(consumer, count, e => _queue.Unavailable(e, deadline), deadline, _catchUp,
            _fetchesInOrder));

    /// <summary>
    /// One take: a no-wait fetch of up to <paramref name="count"/> messages (given up after
    /// <see cref="FetchExpiry"/> with what came; an empty one that ended at once asked again after each
    /// pause of <paramref name="catchUp"/>), then a double ack of each, sent together; it returns once
    /// every ack has been answered, one item per message fetched, in the order fetched. Takes that share
    /// <paramref name="inOrder"/> fetch one at a time, each after the acks of the one before were sent.
    /// A fetch that fails fails the take (its messages, unacknowledged, come back after the ack wait); an ack that
    /// fails with the broker fails its own read only.
    /// </summary>
    internal static async Task<IReadOnlyList<TakenRead>> TakeAsync(INatsJSConsumer consumer, int count,
        Func<Exception, StorageUnavailableException> unavailable, CancellationToken deadline, IReadOnlyList<TimeSpan>? catchUp = null,
        SemaphoreSlim? inOrder = null)
    {
        if (inOrder is not null) await inOrder.WaitAsync(deadline);
        Task<TakenRead>[] acks;
        try
        {
            var fetched = await FetchAsync(consumer, count, deadline, catchUp);
            if (fetched.Count == 0) return [];
            acks = fetched.Select(message => AckAsync(message, unavailable, deadline)).ToArray();
        }
        finally
        {
            inOrder?.Release();
        }
        return await Task.WhenAll(acks);
    }

    private static async Task<TakenRead> AckAsync(INatsJSMsg<byte[]> message, Func<Exception, StorageUnavailableException> unavailable,
        CancellationToken deadline)
    {
        try
        {
            await message.AckAsync(DoubleAck, deadline);
        }
        catch (Exception e) when (NatsJetStreamQueue.IsUnavailable(e))
        {
            return new TakenRead(null, unavailable(e));
        }
        return new TakenRead(new QueueMessage(checked((long)message.Metadata!.Value.Sequence.Stream), message.Data ?? []), null);
    }

    private static async Task<List<INatsJSMsg<byte[]>>> FetchAsync(INatsJSConsumer consumer, int count, CancellationToken deadline,
        IReadOnlyList<TimeSpan>? catchUp)
    {
        var fetched = new List<INatsJSMsg<byte[]>>(count);
        for (var attempt = 0; ; attempt++)
        {
            using var expiry = CancellationTokenSource.CreateLinkedTokenSource(deadline);
            expiry.CancelAfter(FetchExpiry);
            try
            {
                await foreach (var message in consumer.FetchNoWaitAsync(new NatsJSFetchOpts { MaxMsgs = count, Expires = FetchExpiry }, Fetching, expiry.Token))
                {
                    fetched.Add(message);
                }
            }
            catch (OperationCanceledException) when (expiry.IsCancellationRequested && !deadline.IsCancellationRequested)
            {
                break; // a request the server held (above): what came is all there was for it
            }
            if (fetched.Count > 0 || attempt >= (catchUp?.Count ?? 0)) break;
            await Task.Delay(catchUp![attempt], deadline);
        }
        return fetched;
    }

    public async Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken)
    {
        var takenAt = _leases.Now;
        return await _queue.RunAsync(async (consumer, deadline) =>
        {
            for (var attempt = 0; ; attempt++)
            {
                await foreach (var message in consumer.FetchNoWaitAsync(OneMessage, Fetching, deadline))
                {
                    var sequence = message.Metadata!.Value.Sequence.Stream;
                    return new LeasedMessage(checked((long)sequence), message.Data ?? [], _leases.Add(sequence, message, lease, takenAt));
                }
                if (attempt >= _catchUp.Count) return null;
                await Task.Delay(_catchUp[attempt], deadline); // (ReplicaCatchUp)
            }
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
    /// It counts the messages that were waiting (not yet delivered, or delivered and not acknowledged),
    /// as the consumer saw them just before: on a replicated work queue the stream drops an
    /// acknowledged message a moment after the consumer took the ack, so the purge may still find one
    /// there, which was read already and is not counted.
    /// </summary>
    public Task<long> PurgeAsync(CancellationToken cancellationToken) =>
        _queue.RunAsync(async (consumer, deadline) =>
        {
            await consumer.RefreshAsync(deadline);
            var waiting = consumer.Info.NumPending + (ulong)Math.Max(consumer.Info.NumAckPending, 0);
            var purged = await _queue.JetStream.PurgeStreamAsync(_queue.Stream, new StreamPurgeRequest { Filter = _queue.Subject }, deadline);
            return checked((long)Math.Min((ulong)purged.Purged, waiting));
        });

    public ValueTask DisposeAsync() => _leases.DisposeAsync();

    /// <summary>A read's share of a take: its message, acknowledged, or why its ack failed.</summary>
    internal sealed record TakenRead(QueueMessage? Message, StorageUnavailableException? AckFailure)
    {
        /// <summary>The read's answer: the message, or the ack's failure thrown (a 503).</summary>
        public QueueMessage Answer() => AckFailure is { } failure ? throw failure : Message!;
    }
}
