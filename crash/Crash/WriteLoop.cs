namespace Crash;

/// <summary>
/// The writers, as an open model: a timer thread issues each write at its time, evenly spaced,
/// without waiting for earlier ones; at most <see cref="MaxInFlight"/> are in flight, and a write
/// due while the cap is reached (or while no key is free) is skipped and counted.
/// </summary>
internal sealed class WriteLoop(HttpClient client, ICrashWorkload workload, CrashClock clock, bool readAfterAck = false)
{
    public const int MaxInFlight = 1_000;
    private readonly List<Task> _requests = [];
    private long _inFlight;
    private long _acked;
    private long _failed;

    /// <summary>Every write sent, in sending order; complete once <see cref="RunAsync"/> has returned.</summary>
    public List<WriteRecord> Records { get; } = [];
    /// <summary>Writes not sent because <see cref="MaxInFlight"/> were in flight.</summary>
    public long Skipped { get; private set; }
    /// <summary>Writes not sent because every key was busy or retired.</summary>
    public long SkippedNoFreeKey { get; private set; }

    /// <summary>Sends <paramref name="total"/> writes at <paramref name="rate"/> per second, then waits for those in flight.</summary>
    public async Task RunAsync(double rate, long total)
    {
        await Task.Factory.StartNew(() => Send(rate, total), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default)
            .ConfigureAwait(false);
        await Task.WhenAll(_requests).ConfigureAwait(false);
    }

    private void Send(double rate, long total)
    {
        var nextProgress = 1.0;
        for (long seq = 0; seq < total; seq++)
        {
            var due = seq / rate;
            var wait = due - clock.Now;
            if (wait > 0) Thread.Sleep(TimeSpan.FromSeconds(wait));
            if (clock.Now >= nextProgress)
            {
                Progress();
                nextProgress = Math.Floor(clock.Now) + 1;
            }
            if (Interlocked.Read(ref _inFlight) >= MaxInFlight)
            {
                Skipped++;
                continue;
            }
            if (workload.Next(seq) is not { } write)
            {
                SkippedNoFreeKey++;
                continue;
            }
            Interlocked.Increment(ref _inFlight);
            write.SentS = clock.Now;
            Records.Add(write);
            _requests.Add(WriteAsync(write));
        }
    }

    private async Task WriteAsync(WriteRecord write)
    {
        try
        {
            var answer = await CrashHttp.SendAsync(client, write.Url, write.Body, write.Method).ConfigureAwait(false);
            write.CompletedS = clock.Now;
            write.Status = answer.Status;
            write.Class = answer.NoAnswer ?? ResponseClasses.Of(answer.Status,
                answer.Status is >= 200 and < 300 && workload.Acknowledges(write, answer.Status, answer.Body));
            write.Outcome = ResponseClasses.Outcome(write.Class, answer.Status);
            Interlocked.Increment(ref write.Outcome == WriteOutcome.Acked ? ref _acked : ref _failed);
            workload.Completed(write);
            // Read the key once, so that a cache holds it when the next write or the fault comes.
            if (readAfterAck && write.Outcome == WriteOutcome.Acked && write.Key is { } key)
            {
                await CrashHttp.SendAsync(client, workload.ReadUrl(key), body: null).ConfigureAwait(false);
            }
        }
        finally
        {
            Interlocked.Decrement(ref _inFlight);
        }
    }

    private void Progress() =>
        Console.Error.WriteLine($"crash: {clock.Now,5:F1} s: {Records.Count} sent, {Interlocked.Read(ref _acked)} acked, " +
            $"{Interlocked.Read(ref _failed)} failed, {Interlocked.Read(ref _inFlight)} in flight");
}
