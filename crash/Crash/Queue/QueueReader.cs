using System.Collections.Concurrent;

namespace Crash.Queue;

/// <summary>
/// Reads a queue and logs every delivery: consumers that read beside the writers until stopped,
/// then a drain that reads until the queue answers 204 <see cref="EmptyInARow"/> times in a row.
/// Thread-safe; the counts are final once the consumers and the drain have returned.
/// </summary>
internal sealed class QueueReader(HttpClient client, string readUrl, string runId, CrashClock clock)
{
    /// <summary>What GET /read guarantees end to end: the store takes the message off the queue before the answer is written.</summary>
    public const Check.ReadPath Guarantee = Check.ReadPath.AtMostOnce;
    public const int Consumers = 4;
    public const int EmptyInARow = 5;
    private static readonly TimeSpan EmptyPause = TimeSpan.FromMilliseconds(20);
    private static readonly TimeSpan FailurePause = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan DrainEmptyPause = TimeSpan.FromMilliseconds(200);
    private readonly ConcurrentQueue<(long Seq, double ReadSentS)> _delivered = new();
    private long _reads, _foreign, _inDoubt, _refused;

    /// <summary>This run's messages in the order read (a sequence number twice: delivered twice).</summary>
    public IReadOnlyList<long> Delivered => [.. _delivered.Select(d => d.Seq)];
    /// <summary>As <see cref="Delivered"/>, each with when the read that took it was sent (on the run's clock).</summary>
    public IReadOnlyList<(long Seq, double ReadSentS)> Deliveries => [.. _delivered];
    public long Reads => Interlocked.Read(ref _reads);
    public long Foreign => Interlocked.Read(ref _foreign);
    public long InDoubt => Interlocked.Read(ref _inDoubt);
    public long Refused => Interlocked.Read(ref _refused);

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

    /// <summary>Reads until <see cref="EmptyInARow"/> 204s in a row; false if that did not happen within <paramref name="seconds"/>.</summary>
    public async Task<bool> DrainAsync(double seconds)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        var empty = 0;
        while (DateTime.UtcNow < deadline)
        {
            switch (await ReadAsync().ConfigureAwait(false))
            {
                case ReadOutcome.Empty:
                    if (++empty == EmptyInARow) return true;
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
        return false;
    }

    private async Task<ReadOutcome> ReadAsync()
    {
        var sentS = clock.Now;
        var answer = await CrashHttp.SendAsync(client, readUrl, body: null).ConfigureAwait(false);
        Interlocked.Increment(ref _reads);
        var outcome = Classify(answer, runId, out var seq);
        switch (outcome)
        {
            case ReadOutcome.Own: _delivered.Enqueue((seq, sentS)); break;
            case ReadOutcome.Foreign: Interlocked.Increment(ref _foreign); break;
            case ReadOutcome.InDoubt: Interlocked.Increment(ref _inDoubt); break;
            case ReadOutcome.Refused: Interlocked.Increment(ref _refused); break;
        }
        return outcome;
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
