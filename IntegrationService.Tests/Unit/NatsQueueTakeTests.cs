using System.Runtime.CompilerServices;
using IntegrationService.Queues;
using IntegrationService.Storage;
using IntegrationService.Storage.Nats;
using NATS.Client.Core;
using NATS.Client.JetStream;
using NATS.Client.JetStream.Models;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// The NATS queue's take (<see cref="NatsQueueStore.TakeAsync(INatsJSConsumer, int, Func{Exception, StorageUnavailableException}, CancellationToken, IReadOnlyList{TimeSpan}?, SemaphoreSlim?)"/>)
/// on a consumer faked in memory: one no-wait fetch for the reads waiting, a double ack of every
/// message, and no answer before every ack has answered.
/// </summary>
public sealed class NatsQueueTakeTests
{
    private static StorageUnavailableException Unavailable(Exception e) => new("nats", e.Message, e);

    [Fact]
    public async Task ATakeFetchesAsManyAsReadsWithoutWaitingAndDoubleAcksEachInOrder()
    {
        var consumer = new FakeConsumer(new FakeMessage(7), new FakeMessage(8), new FakeMessage(9));

        var taken = await NatsQueueStore.TakeAsync(consumer, 5, Unavailable, CancellationToken.None);

        var fetch = Assert.Single(consumer.Fetches);
        Assert.Equal(5, fetch.MaxMsgs);
        Assert.Equal(TimeSpan.FromSeconds(1), fetch.Expires); // ends a request the server holds, within the call's deadline
        Assert.Equal([7L, 8L, 9L], taken.Select(t => t.Answer().Id));
        Assert.Equal(["m7", "m8", "m9"], taken.Select(t => System.Text.Encoding.UTF8.GetString(t.Answer().Body.Span)));
        Assert.All(consumer.Messages, m => Assert.Equal([true], m.Acks));
    }

    [Fact]
    public async Task AnEmptyConsumerGivesAnEmptyTake()
    {
        var taken = await NatsQueueStore.TakeAsync(new FakeConsumer(), 3, Unavailable, CancellationToken.None);
        Assert.Empty(taken);
    }

    /// <summary>
    /// The server holds a no-wait request it let in for messages that requests ahead of it took
    /// (NATS.Net sends it no expiry): the take gives up after its 1-s expiry, so its reads answer
    /// 204 within the call's deadline, not 503 at it.
    /// </summary>
    [Fact]
    public async Task AFetchTheServerHoldsEndsAfterTheExpiryWithWhatCame()
    {
        var started = TimeProvider.System.GetTimestamp();

        var taken = await NatsQueueStore.TakeAsync(new FakeConsumer { Holds = true }, 3, Unavailable, CancellationToken.None);

        Assert.Empty(taken);
        Assert.InRange(TimeProvider.System.GetElapsedTime(started), TimeSpan.FromSeconds(0.9), TimeSpan.FromSeconds(10));
    }

    [Fact]
    public async Task TheCallsDeadlineStillFailsAHeldFetch()
    {
        using var deadline = new CancellationTokenSource(TimeSpan.FromMilliseconds(100));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            NatsQueueStore.TakeAsync(new FakeConsumer(new FakeMessage(1)) { Holds = true }, 3, Unavailable, deadline.Token));
    }

    [Fact]
    public async Task OnAReplicatedStreamAnEmptyFetchIsAskedAgainUntilTheConsumersNodeHasTheMessage()
    {
        var lagging = new FakeConsumer(new FakeMessage(4)) { EmptyFetches = 2 };
        var taken = await NatsQueueStore.TakeAsync(lagging, 3, Unavailable, CancellationToken.None, NatsQueueStore.ReplicaCatchUp);
        Assert.Equal([4L], taken.Select(t => t.Answer().Id));
        Assert.Equal(3, lagging.Fetches.Count);

        // A single node has nothing to catch up with: its first empty answer is the answer.
        var single = new FakeConsumer(new FakeMessage(4)) { EmptyFetches = 2 };
        Assert.Empty(await NatsQueueStore.TakeAsync(single, 3, Unavailable, CancellationToken.None));
        Assert.Single(single.Fetches);
    }

    [Fact]
    public async Task OnAReplicatedStreamAnEmptyQueueIsEmptyAfterEveryPauseAndAHeldFetchIsNotAskedAgain()
    {
        var empty = new FakeConsumer();
        Assert.Empty(await NatsQueueStore.TakeAsync(empty, 3, Unavailable, CancellationToken.None, NatsQueueStore.ReplicaCatchUp));
        Assert.Equal(NatsQueueStore.ReplicaCatchUp.Length + 1, empty.Fetches.Count);

        var held = new FakeConsumer { Holds = true };
        Assert.Empty(await NatsQueueStore.TakeAsync(held, 3, Unavailable, CancellationToken.None, NatsQueueStore.ReplicaCatchUp));
        Assert.Single(held.Fetches); // it waited its expiry already
    }

    [Fact]
    public async Task NoReadIsAnsweredBeforeEveryAckOfTheTakeHasAnswered()
    {
        var held = new FakeMessage(2) { Release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously) };
        var consumer = new FakeConsumer(new FakeMessage(1), held, new FakeMessage(3));

        var take = NatsQueueStore.TakeAsync(consumer, 3, Unavailable, CancellationToken.None);
        await WaitUntil(() => consumer.Messages.All(m => m.Acks.Count == 1)); // all three sent at once
        Assert.False(take.IsCompleted);

        held.Release.SetResult();
        Assert.Equal([1L, 2L, 3L], (await take).Select(t => t.Answer().Id));
    }

    [Fact]
    public async Task AFailedAckFailsItsOwnReadOnlyAndTheOthersAreDelivered()
    {
        var lost = new FakeMessage(2) { AckFailure = new NatsNoRespondersException() };
        var consumer = new FakeConsumer(new FakeMessage(1), lost, new FakeMessage(3));

        var taken = await NatsQueueStore.TakeAsync(consumer, 3, Unavailable, CancellationToken.None);

        Assert.Equal(1, taken[0].Answer().Id);
        var failure = Assert.Throws<StorageUnavailableException>(() => taken[1].Answer());
        Assert.Same(lost.AckFailure, failure.InnerException);
        Assert.Null(taken[1].Message); // the message whose ack is in doubt is handed to nobody
        Assert.Equal(3, taken[2].Answer().Id);
    }

    [Fact]
    public async Task ThroughTheBatcherTheReadsOfATakeGetItsMessagesOrItsAckFailures()
    {
        var consumer = new FakeConsumer(new FakeMessage(1), new FakeMessage(2) { AckFailure = new TimeoutException() }, new FakeMessage(3))
        {
            Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously),
        };
        var batcher = new QueueTakeBatcher<NatsQueueStore.TakenRead>(
            count => NatsQueueStore.TakeAsync(consumer, count, Unavailable, CancellationToken.None), maxInFlight: 1, maxBatch: 64);
        var first = batcher.TakeOneAsync(); // a take of one, held at its fetch
        var waiting = Enumerable.Range(0, 3).Select(_ => batcher.TakeOneAsync()).ToList();
        consumer.Gate.SetResult();

        Assert.Equal(1, (await first)!.Answer().Id);
        var reads = await Task.WhenAll(waiting);
        Assert.Throws<StorageUnavailableException>(() => reads[0]!.Answer());
        Assert.Equal(3, reads[1]!.Answer().Id);
        Assert.Null(reads[2]); // the queue had no more: 204
        Assert.Equal([1, 3], consumer.Fetches.Select(f => f.MaxMsgs));
    }

    /// <summary>
    /// Takes that share the store's order fetch one at a time, and each sends its acks before the next
    /// fetches: nats-server hands the messages of two pull requests out in turn, and acks arriving out of
    /// stream order made it rewrite (compact) each 8-MB block it was emptying.
    /// </summary>
    [Fact]
    public async Task TakesThatShareAnOrderFetchOneAtATimeAndAckBeforeTheNextFetch()
    {
        var first = new FakeMessage(1) { Release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously) };
        var consumer = new FakeConsumer(first, new FakeMessage(2), new FakeMessage(3))
        {
            Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously),
        };
        using var inOrder = new SemaphoreSlim(1, 1);

        var a = NatsQueueStore.TakeAsync(consumer, 1, Unavailable, CancellationToken.None, inOrder: inOrder);
        var b = NatsQueueStore.TakeAsync(consumer, 2, Unavailable, CancellationToken.None, inOrder: inOrder);
        await WaitUntil(() => consumer.Fetches.Count == 1);
        await Task.Delay(50);
        Assert.Single(consumer.Fetches); // b waits for a's fetch

        consumer.Gate.SetResult();
        await WaitUntil(() => consumer.Fetches.Count == 2);
        Assert.Equal([true], first.Acks); // a's ack went out before b fetched
        Assert.False(a.IsCompleted); // and a still waits for its answer while b runs
        Assert.Equal([2L, 3L], (await b).Select(t => t.Answer().Id));

        first.Release.SetResult();
        Assert.Equal([1L], (await a).Select(t => t.Answer().Id));

        // Without the order, the second fetch goes out while the first is still under way.
        var unordered = new FakeConsumer(new FakeMessage(1), new FakeMessage(2))
        {
            Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously),
        };
        var c = NatsQueueStore.TakeAsync(unordered, 1, Unavailable, CancellationToken.None);
        var d = NatsQueueStore.TakeAsync(unordered, 1, Unavailable, CancellationToken.None);
        await WaitUntil(() => unordered.Fetches.Count == 2);
        unordered.Gate.SetResult();
        await Task.WhenAll(c, d);
    }

    private static async Task WaitUntil(Func<bool> condition)
    {
        for (var i = 0; i < 500 && !condition(); i++) await Task.Delay(10);
        Assert.True(condition());
    }

    /// <summary>A durable consumer that hands out its messages in order, to no-wait fetches only.</summary>
    private sealed class FakeConsumer(params FakeMessage[] messages) : INatsJSConsumer
    {
        private int _next;

        public FakeMessage[] Messages { get; } = messages;

        public List<NatsJSFetchOpts> Fetches { get; } = [];

        /// <summary>When set, fetches wait for it.</summary>
        public TaskCompletionSource? Gate { get; init; }

        /// <summary>The server holds the request after the messages it had (waiting for a message written later).</summary>
        public bool Holds { get; init; }

        /// <summary>How many fetches find nothing before the messages are seen (a consumer's node behind the stream's leader).</summary>
        public int EmptyFetches { get; init; }

        public async IAsyncEnumerable<INatsJSMsg<T>> FetchNoWaitAsync<T>(NatsJSFetchOpts opts, INatsDeserialize<T>? serializer = default,
            [EnumeratorCancellation] CancellationToken cancellationToken = default)
        {
            int fetch;
            lock (Fetches)
            {
                Fetches.Add(opts);
                fetch = Fetches.Count;
            }
            if (Gate is not null) await Gate.Task;
            if (fetch <= EmptyFetches) yield break;
            for (var n = 0; n < opts.MaxMsgs && _next < Messages.Length; n++) yield return (INatsJSMsg<T>)(object)Messages[_next++];
            if (Holds) await Task.Delay(Timeout.Infinite, cancellationToken);
        }

        public ConsumerInfo Info => throw new NotSupportedException();

        public IAsyncEnumerable<INatsJSMsg<T>> ConsumeAsync<T>(INatsDeserialize<T>? serializer = default, NatsJSConsumeOpts? opts = default,
            CancellationToken cancellationToken = default) => throw new NotSupportedException();

        public ValueTask<INatsJSMsg<T>?> NextAsync<T>(INatsDeserialize<T>? serializer = default, NatsJSNextOpts? opts = default,
            CancellationToken cancellationToken = default) => throw new NotSupportedException();

        public IAsyncEnumerable<INatsJSMsg<T>> FetchAsync<T>(NatsJSFetchOpts opts, INatsDeserialize<T>? serializer = default,
            CancellationToken cancellationToken = default) => throw new NotSupportedException();

        public ValueTask RefreshAsync(CancellationToken cancellationToken = default) => throw new NotSupportedException();

        public ValueTask UnpinAsync(string group, CancellationToken cancellationToken = default) => throw new NotSupportedException();

        public ValueTask<ConsumerResetResponse> ResetAsync(ulong sequence, CancellationToken cancellationToken = default) => throw new NotSupportedException();
    }

    /// <summary>A fetched message with stream sequence <paramref name="sequence"/>; its acks are recorded (true: double ack).</summary>
    private sealed class FakeMessage(ulong sequence) : INatsJSMsg<byte[]>
    {
        public List<bool> Acks { get; } = [];

        public Exception? AckFailure { get; init; }

        /// <summary>When set, the ack is answered only once it completes.</summary>
        public TaskCompletionSource? Release { get; init; }

        public async ValueTask AckAsync(AckOpts? opts = default, CancellationToken cancellationToken = default)
        {
            lock (Acks) Acks.Add(opts?.DoubleAck == true);
            if (Release is not null) await Release.Task;
            await Task.Yield();
            if (AckFailure is not null) throw AckFailure;
        }

        public string Subject => "integration.queue";
        public int Size => Data.Length;
        public byte[] Data { get; } = System.Text.Encoding.UTF8.GetBytes($"m{sequence}");
        public INatsConnection? Connection => null;
        public NatsJSMsgMetadata? Metadata { get; } =
            new NatsJSMsgMetadata(new NatsJSSequencePair(sequence, sequence), 1, 0, DateTimeOffset.UnixEpoch, "INTEGRATION", "integration", "");
        public string? ReplyTo => null;
        public NatsException? Error => null;
        public NatsHeaders? Headers => null;

        public void EnsureSuccess() { }

        public ValueTask ReplyAsync(NatsHeaders? headers = default, string? replyTo = default, NatsPubOpts? opts = default,
            CancellationToken cancellationToken = default) => throw new NotSupportedException();

        public ValueTask NakAsync(AckOpts? opts = default, CancellationToken cancellationToken = default) =>
            throw new NotSupportedException();

        public ValueTask AckProgressAsync(AckOpts? opts = default, CancellationToken cancellationToken = default) => throw new NotSupportedException();

        public ValueTask AckTerminateAsync(AckOpts? opts = default, CancellationToken cancellationToken = default) => throw new NotSupportedException();
    }
}
