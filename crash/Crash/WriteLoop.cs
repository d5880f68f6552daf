using System.Runtime.ExceptionServices;
using Tank.Runner;
using Harness.Timing;

namespace Crash;

/// <summary>
/// The writers, as an open model: a timer thread issues each write at its time, evenly spaced
/// (after an optional linear ramp), without waiting for earlier ones; at most
/// <see cref="MaxInFlight"/> are in flight, and a write due while the cap is reached (or while no
/// key is free) is skipped and counted. Between writes the thread sleeps in the kernel (never a
/// yield loop, which took CPU from the service and the server it loads); each write keeps the time
/// it was due as well as the time it went. With an <see cref="Timeline.EarlyEnd"/> the writes stop at the first
/// whole second it ends the run at (<see cref="EndedAtS"/>), the rest of the planned writes unsent.
/// </summary>
internal sealed class WriteLoop(HttpClient client, ICrashWorkload workload, CrashClock clock, bool readAfterAck = false, Timeline.EarlyEnd? earlyEnd = null)
{
    public const int MaxInFlight = 1_000;
    // The writes not yet ended, plus one for the sender until it has sent the last: done at 0.
    // Not a list of their tasks, which kept every ended request's state alive to the end of the run.
    private long _outstanding = 1;
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private ExceptionDispatchInfo? _failure;
    private long _inFlight;
    private long _acked;
    private long _failed;

    /// <summary>Every write sent, in sending order; complete once <see cref="RunAsync"/> has returned.</summary>
    public List<WriteRecord> Records { get; } = [];
    /// <summary>Writes not sent because <see cref="MaxInFlight"/> were in flight.</summary>
    public long Skipped { get; private set; }
    /// <summary>Writes not sent because every key was busy or retired.</summary>
    public long SkippedNoFreeKey { get; private set; }
    /// <summary>The whole second at which the early end stopped the writes (none due from it on was sent); null: every planned write was due.</summary>
    public int? EndedAtS { get; private set; }

    /// <summary>
    /// Sends <paramref name="total"/> writes at <paramref name="rate"/> per second, the first
    /// <paramref name="rampSeconds"/> rising linearly from 0 to it, then waits for those in flight.
    /// </summary>
    public async Task RunAsync(double rate, long total, double rampSeconds = 0)
    {
        await Task.Factory.StartNew(() => Send(rate, total, rampSeconds), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default)
            .ConfigureAwait(false);
        Ended();
        await _done.Task.ConfigureAwait(false);
        _failure?.Throw();
    }

    /// <summary>Writes a ramp of <paramref name="rampSeconds"/> up to <paramref name="rate"/> sends.</summary>
    public static long RampWrites(double rate, double rampSeconds) => (long)Math.Floor(rate * rampSeconds / 2);

    /// <summary>
    /// When write <paramref name="seq"/> is due: on a ramp whose rate rises linearly to
    /// <paramref name="rate"/> over <paramref name="rampSeconds"/> (n writes by time t: rate·t²/(2·ramp)),
    /// then evenly at <paramref name="rate"/>.
    /// </summary>
    public static double DueS(long seq, double rate, double rampSeconds)
    {
        var ramp = RampWrites(rate, rampSeconds);
        return seq < ramp ? Math.Sqrt(2 * rampSeconds * seq / rate) : rampSeconds + (seq - ramp) / rate;
    }

    private void Send(double rate, long total, double rampSeconds)
    {
        PreciseWait.TuneCurrentThread();
        var nextProgress = 1.0;
        var nextCheck = 1.0;
        for (long seq = 0; seq < total; seq++)
        {
            var due = DueS(seq, rate, rampSeconds);
            if (due > clock.Now) PreciseWait.SleepUntil(clock.TicksAt(due));
            if (earlyEnd is not null && due >= nextCheck)
            {
                var second = (int)Math.Floor(due);
                if (earlyEnd.EndsAt(second))
                {
                    EndedAtS = second;
                    break;
                }
                nextCheck = second + 1;
            }
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
            write.DueS = due;
            write.SentS = clock.Now;
            earlyEnd?.Sent((int)Math.Floor(due));
            Records.Add(write);
            Interlocked.Increment(ref _outstanding);
            _ = WriteAsync(write);
        }
    }

    private async Task WriteAsync(WriteRecord write)
    {
        try
        {
            var answer = await CrashHttp.SendAsync(client, write.Url!, write.Body, write.Method).ConfigureAwait(false);
            write.CompletedS = clock.Now;
            write.Release();
            write.Status = answer.Status;
            write.Class = answer.NoAnswer ?? ResponseClasses.Of(answer.Status,
                answer.Status is >= 200 and < 300 && workload.Acknowledges(write, answer.Status, answer.Body));
            write.Outcome = ResponseClasses.Outcome(write.Class, answer.Status);
            earlyEnd?.Completed((int)Math.Floor(write.DueS), (write.CompletedS - write.DueS) * 1000, write.Class == ResponseClass.Ack);
            Interlocked.Increment(ref write.Outcome == WriteOutcome.Acked ? ref _acked : ref _failed);
            workload.Completed(write);
            // Read the key once, so that a cache holds it when the next write or the fault comes.
            if (readAfterAck && write.Outcome == WriteOutcome.Acked && write.Key is { } key)
            {
                await CrashHttp.SendAsync(client, workload.ReadUrl(key), body: null).ConfigureAwait(false);
            }
        }
        catch (Exception e)
        {
            // A workload that cannot read an answer is a bug of the tester: the run fails with it.
            Interlocked.CompareExchange(ref _failure, ExceptionDispatchInfo.Capture(e), null);
        }
        finally
        {
            Interlocked.Decrement(ref _inFlight);
            Ended();
        }
    }

    private void Ended()
    {
        if (Interlocked.Decrement(ref _outstanding) == 0) _done.SetResult();
    }

    private void Progress() =>
        Console.Error.WriteLine($"crash: {clock.Now,5:F1} s: {Records.Count} sent, {Interlocked.Read(ref _acked)} acked, " +
            $"{Interlocked.Read(ref _failed)} failed, {Interlocked.Read(ref _inFlight)} in flight");
}
