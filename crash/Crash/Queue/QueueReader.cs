using System.Collections.Concurrent;

namespace Crash.Queue;

/// <summary>
/// Reads a queue and logs every delivery: consumers that read beside the writers until stopped,
/// then a drain that reads until the queue answers 204 <see cref="EmptyInARow"/> times in a row.
/// Reads <c>GET /read</c>, or, given <paramref name="leases"/>, the leased read: each message is
/// logged, then acknowledged. Thread-safe; the counts are final once the consumers and the drain
/// have returned.
/// </summary>
internal sealed class QueueReader(HttpClient client, string readUrl, string runId, CrashClock clock, LeasedReads? leases = null)
{
    /// <summary>What GET /read guarantees end to end: the store takes the message off the queue before the answer is written.</summary>
    public const Check.ReadPath Guarantee = Check.ReadPath.AtMostOnce;

    /// <summary>What this reader's path guarantees: the leased read redelivers a message whose reader never acknowledged it.</summary>
    public Check.ReadPath Path => leases is null ? Guarantee : Check.ReadPath.AtLeastOnce;
    public const int Consumers = 4;
    public const int EmptyInARow = 5;
    private static readonly TimeSpan EmptyPause = TimeSpan.FromMilliseconds(20);
    private static readonly TimeSpan FailurePause = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan DrainEmptyPause = TimeSpan.FromMilliseconds(200);
    private readonly ConcurrentQueue<(long Seq, double ReadSentS)> _delivered = new();
    private long _reads, _foreign, _inDoubt, _refused, _acksRefused, _acksInDoubt;

    /// <summary>This run's messages in the order read (a sequence number twice: delivered twice).</summary>
    public IReadOnlyList<long> Delivered => [.. _delivered.Select(d => d.Seq)];
    /// <summary>As <see cref="Delivered"/>, each with when the read that took it was sent (on the run's clock).</summary>
    public IReadOnlyList<(long Seq, double ReadSentS)> Deliveries => [.. _delivered];
    public long Reads => Interlocked.Read(ref _reads);
    public long Foreign => Interlocked.Read(ref _foreign);
    public long InDoubt => Interlocked.Read(ref _inDoubt);
    public long Refused => Interlocked.Read(ref _refused);
    /// <summary>Leased path: acks answered 404 (the lease had ended: the message comes again).</summary>
    public long AcksRefused => Interlocked.Read(ref _acksRefused);
    /// <summary>Leased path: acks with no clear answer (the message may come again).</summary>
    public long AcksInDoubt => Interlocked.Read(ref _acksInDoubt);

    /// <summary>
    /// Reads with <see cref="Consumers"/> loops until <paramref name="stop"/> is cancelled, together
    /// at most <paramref name="readsPerSecond"/> reads a second, evenly spaced.
    /// </summary>
    public Task ConsumeAsync(double readsPerSecond, CancellationToken stop)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        long ticket = -1;
        return Task.WhenAll(Enumerable.Range(0, Consumers).Select(_ => Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                var due = TimeSpan.FromSeconds(Interlocked.Increment(ref ticket) / readsPerSecond) - clock.Elapsed;
                if (due > TimeSpan.Zero) await Delay(due, stop).ConfigureAwait(false);
                if (stop.IsCancellationRequested) break;
                var outcome = await ReadAsync().ConfigureAwait(false);
                var pause = outcome switch { ReadOutcome.Empty => EmptyPause, ReadOutcome.InDoubt or ReadOutcome.Refused => FailurePause, _ => TimeSpan.Zero };
                if (pause > TimeSpan.Zero) await Delay(pause, stop).ConfigureAwait(false);
            }
        })));
    }

    /// <summary>
    /// While acknowledged messages are still undelivered, the drain waits this long on 204s before it
    /// ends: a broker hands out again, only after its own ack wait (NATS JetStream's is 30 s here), a
    /// message whose delivery the service never received (a fetch answered after its reader gave up,
    /// a leased message held by a killed service).
    /// </summary>
    public static readonly TimeSpan QuietWhileMissing = TimeSpan.FromSeconds(40);

    /// <summary>
    /// Reads until <see cref="EmptyInARow"/> 204s in a row; false if that did not happen within <paramref name="seconds"/>.
    /// On the leased path the 204s must also span a quiet time (<see cref="LeasedReads.Quiet"/>), so a
    /// message whose lease was held by a failed reader or a killed service is back before the drain
    /// ends; and while <paramref name="missing"/> says acknowledged messages are still undelivered, on
    /// either path, a longer one (<see cref="QuietWhileMissing"/>). A drain that runs out of time while
    /// it waits, the queue empty for the shorter quiet time, has drained (what is still missing is lost).
    /// </summary>
    public async Task<bool> DrainAsync(double seconds, Func<bool>? missing = null)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        var empty = 0;
        var emptySince = DateTime.UtcNow;
        while (DateTime.UtcNow < deadline)
        {
            switch (await ReadAsync().ConfigureAwait(false))
            {
                case ReadOutcome.Empty:
                    if (empty++ == 0) emptySince = DateTime.UtcNow;
                    if (empty >= EmptyInARow && DateTime.UtcNow - emptySince >= QuietFor(missing?.Invoke() ?? false)) return true;
                    // A message released by a dead reader (at-least-once) or still being restored may come back.
                    await Task.Delay(DrainEmptyPause).ConfigureAwait(false);
                    break;
                case ReadOutcome.InDoubt or ReadOutcome.Refused:
                    empty = 0;
                    await Task.Delay(FailurePause).ConfigureAwait(false);
                    break;
                default:
                    empty = 0;
                    break;
            }
        }
        // Out of time while still waiting for missing messages, but empty for a whole lease: they are lost, not unverified.
        return empty >= EmptyInARow && DateTime.UtcNow - emptySince >= QuietFor(missing: false);
    }

    /// <summary>
    /// How long the 204s must last before the drain ends: on the leased path a lease and the reapers
    /// (<see cref="LeasedReads.Quiet"/>); while acknowledged messages are still missing, on either path,
    /// <see cref="QuietWhileMissing"/>.
    /// </summary>
    private TimeSpan QuietFor(bool missing) => missing ? QuietWhileMissing : leases is null ? TimeSpan.Zero : LeasedReads.Quiet;

    private async Task<ReadOutcome> ReadAsync()
    {
        var sentS = clock.Now;
        var answer = leases is null
            ? await CrashHttp.SendAsync(client, readUrl, body: null).ConfigureAwait(false)
            : await CrashHttp.SendAsync(client, leases.LeaseUrl, body: null, HttpMethod.Post).ConfigureAwait(false);
        Interlocked.Increment(ref _reads);
        var outcome = Classify(answer, runId, out var seq);
        switch (outcome)
        {
            case ReadOutcome.Own: _delivered.Enqueue((seq, sentS)); break;
            case ReadOutcome.Foreign: Interlocked.Increment(ref _foreign); break;
            case ReadOutcome.InDoubt: Interlocked.Increment(ref _inDoubt); break;
            case ReadOutcome.Refused: Interlocked.Increment(ref _refused); break;
        }
        // Logged above; only now acknowledged (a foreign message too, or it would come back for ever).
        if (leases is not null && outcome is ReadOutcome.Own or ReadOutcome.Foreign) await AckAsync(answer.Body).ConfigureAwait(false);
        return outcome;
    }

    private async Task AckAsync(byte[] leased)
    {
        var receipt = LeasedReads.Receipt(leased);
        if (receipt is null)
        {
            Interlocked.Increment(ref _acksRefused);
            return;
        }
        var answer = await CrashHttp.SendAsync(client, leases!.AckUrl(receipt), body: null, HttpMethod.Post).ConfigureAwait(false);
        if (answer.NoAnswer is null && answer.Status == 204) return;
        Interlocked.Increment(ref answer.NoAnswer is null && answer.Status is >= 400 and < 500 ? ref _acksRefused : ref _acksInDoubt);
    }

    /// <summary>One read's outcome; for <see cref="ReadOutcome.Own"/> the message's sequence number.</summary>
    internal static ReadOutcome Classify(HttpAnswer answer, string runId, out long seq)
    {
        seq = -1;
        if (answer.NoAnswer is not null) return ReadOutcome.InDoubt;
        switch (answer.Status)
        {
            case 204: return ReadOutcome.Empty;
            case >= 200 and < 300:
                if (QueueMessage.OwnSeq(answer.Body, runId) is not { } own) return ReadOutcome.Foreign;
                seq = own;
                return ReadOutcome.Own;
            case >= 400 and < 500: return ReadOutcome.Refused;
            default: return ReadOutcome.InDoubt;
        }
    }

    private static async Task Delay(TimeSpan pause, CancellationToken stop)
    {
        try
        {
            await Task.Delay(pause, stop).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            // stopped: the loop ends
        }
    }
}
