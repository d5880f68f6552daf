using System.Security.Cryptography;

namespace Crash.Queue;

/// <summary>
/// One queue run: producers write at a fixed rate and log every acknowledgement, consumers read
/// beside them and log every delivery, the fault strikes in the middle; once the writes are done
/// and the API answers again, the queue is drained, and the two logs make the <see cref="QueueLedger"/>.
/// </summary>
internal sealed class QueueCrashTest(CrashOptions options)
{
    /// <summary>
    /// The consumers read at this share of the write rate, so a backlog builds up and is on the
    /// queue when the fault strikes: a queue the consumers keep empty has nothing to lose (a
    /// snapshot of an empty queue is as good as any). The drain empties it afterwards.
    /// </summary>
    public const double ReadShare = 0.5;

    /// <summary>The result and the exit code, as <see cref="CrashTest.RunAsync"/>.</summary>
    public async Task<(QueueResult? Result, int ExitCode)> RunAsync()
    {
        var runId = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4));
        using var client = CrashHttp.Create(options.TimeoutMs);
        var workload = new QueueWorkload(options.Url, options.Storage, runId);
        var probe = new ReadBack(client, workload);
        if (!await probe.WaitForApiAsync(workload.ProbeUrl(null), options.RecoverSeconds).ConfigureAwait(false))
        {
            Console.Error.WriteLine($"crash: GET {workload.ProbeUrl(null)} got no 2xx within {options.RecoverSeconds} s; the API is not up, nothing was written");
            return (null, CrashTest.ApiNeverCameBack);
        }

        if (options.WarmupSeconds > 0) await WarmUpAsync(client).ConfigureAwait(false);
        var leases = options.Kind == CrashKind.LeasedQueue ? new LeasedReads(options.Url, options.Storage) : null;
        Console.Error.WriteLine($"crash: {options.Label}: run {runId}, {options.PlannedWrites} messages at {options.Rate}/s → {options.Url}, " +
            $"{QueueReader.Consumers} consumers reading {options.Rate * ReadShare}/s{(leases is null ? "" : $" with {LeasedReads.Lease.TotalSeconds:0}-s leases, acknowledged once logged")}, fault at {options.FaultAt} s");
        var startedAt = DateTimeOffset.UtcNow;
        var clock = new CrashClock();
        var reader = new QueueReader(client, workload.ReadMessageUrl, runId, clock, leases);
        using var stopConsumers = new CancellationTokenSource();
        var consumers = reader.ConsumeAsync(options.Rate * ReadShare, stopConsumers.Token);
        var injector = FaultInjector.For(options, clock);
        var earlyEnd = options.EarlyEnd(() => injector.EndedS);
        var loop = new WriteLoop(client, workload, clock, earlyEnd: earlyEnd);
        var fault = injector.Start(options.FaultAt);
        await loop.RunAsync(options.Rate, options.PlannedWrites).ConfigureAwait(false);
        var ran = CrashTest.Ran(options, loop, earlyEnd);
        var faultResult = await CrashTest.WaitForFaultAsync(fault, injector, options).ConfigureAwait(false);
        await stopConsumers.CancelAsync().ConfigureAwait(false);
        await consumers.ConfigureAwait(false);
        var settledS = await CrashTest.SettleAsync(options, clock).ConfigureAwait(false);

        Console.Error.WriteLine($"crash: {clock.Now,5:F1} s: writes done; waiting up to {options.RecoverSeconds} s for the API, then draining the queue");
        double? readyS = await probe.WaitForApiAsync(workload.ProbeUrl(null), options.RecoverSeconds).ConfigureAwait(false) ? clock.Now : null;
        var acked = loop.Records.Where(w => w.Outcome == WriteOutcome.Acked).Select(w => w.Seq).ToHashSet();
        bool Missing() => !acked.IsSubsetOf(reader.Delivered);
        var drained = readyS is not null && await reader.DrainAsync(options.RecoverSeconds, Missing).ConfigureAwait(false);
        var drainS = readyS is not null ? clock.Now - readyS : null;

        var ledger = QueueLedger.Of(loop.Records.Select(w => (w.Seq, w.Outcome)), reader.Delivered, reader.InDoubt, reader.Foreign);
        var ages = QueueLedger.Ages(loop.Records.Where(w => w.Outcome == WriteOutcome.Acked).Select(w => (w.Seq, w.CompletedS)), reader.Deliveries, faultResult.StartedS);
        var failed = loop.Records.Where(w => w.Class != ResponseClass.Ack).ToList();
        var recovery = RecoveryTime.Compute(loop.Records.Select(w => new WriteTiming(w.SentS, w.CompletedS, w.Class == ResponseClass.Ack)).ToList(), faultResult.StartedS);
        var result = new QueueResult
        {
            Label = options.Label,
            Storage = options.Storage,
            Kind = options.Kind.Name(),
            Url = options.Url,
            RunId = runId,
            StartedAt = startedAt,
            Rate = options.Rate,
            RateSource = options.RateSource,
            RateFromReport = options.RateFromReport,
            RateReport = options.RateReport,
            RequestedSeconds = options.RequestedSeconds ?? options.Seconds,
            SecondsSource = ran.SecondsSource,
            FaultBudgetS = options.FaultBudgetS,
            Timeline = Timeline.RunTimeline.Of(loop.Records, options.SloMs, CrashResultBuilder.Round(faultResult.StartedS), CrashResultBuilder.Round(faultResult.EndedS), ran.Seconds),
            Seconds = ran.Seconds,
            TimeoutMs = options.TimeoutMs,
            FaultAtS = options.FaultAt,
            FaultCmd = options.FaultCommand,
            FaultExitCode = faultResult.ExitCode,
            FaultStartedS = CrashResultBuilder.Round(faultResult.StartedS),
            FaultEndedS = CrashResultBuilder.Round(faultResult.EndedS),
            IdleCoresDuringFault = faultResult.IdleCores,
            FaultStderrTail = faultResult.StderrTail,
            FaultError = faultResult.Error,
            Planned = ran.PlannedWrites,
            Sent = loop.Records.Count,
            Acked = ledger.Acked,
            Failed = CrashResultBuilder.Failures(failed),
            InDoubt = ledger.InDoubt,
            Skipped = loop.Skipped,
            // A drain that never found the queue empty (a backlog of foreign messages ahead of ours, or
            // the API not back) proves nothing about the messages it did not reach: unverified, not lost.
            Lost = drained ? ledger.Lost : 0,
            Unverified = drained ? 0 : ledger.Lost,
            Duplicated = ledger.Duplicated,
            LostAgesMs = drained ? ages.LostMs : [],
            OldestLostAgeMs = drained ? ages.OldestLostMs : null,
            OldestHeldAgeMs = ages.OldestHeldMs,
            RecoveryS = CrashResultBuilder.Round(recovery.RecoveryS),
            UnavailableS = CrashResultBuilder.Round(recovery.UnavailableS),
            FirstFailureS = CrashResultBuilder.Round(recovery.FirstFailureS),
            LastFailureS = CrashResultBuilder.Round(recovery.LastFailureS),
            ReadBackReadyS = CrashResultBuilder.Round(readyS),
            Delivered = ledger.Delivered,
            Deliveries = ledger.Deliveries,
            Unexpected = ledger.Unexpected,
            InDoubtWrites = ledger.InDoubtWrites,
            InDoubtWritesDelivered = ledger.InDoubtWritesDelivered,
            ReadsInDoubt = ledger.ReadsInDoubt,
            ReadPath = reader.Path,
            AcksRefused = reader.AcksRefused,
            AcksInDoubt = reader.AcksInDoubt,
            ReadsRefused = reader.Refused,
            Foreign = ledger.Foreign,
            Reads = reader.Reads,
            DrainComplete = drained,
            DrainS = CrashResultBuilder.Round(drainS),
            LostExamples = [.. ledger.LostExamples],
            DuplicatedExamples = [.. ledger.DuplicatedExamples],
            DuplicatedFirstReadS = [.. QueueLedger.FirstReadsOfDuplicates(reader.Deliveries).Select(s => Math.Round(s, 3))],
            SettledS = settledS,
        };
        return (result, drained ? 0 : CrashTest.ApiNeverCameBack);
    }

    /// <summary>
    /// As <see cref="CrashTest"/>'s warm-up: a ramp of <see cref="CrashOptions.WarmupRampSeconds"/>
    /// up to the run's rate, then <see cref="CrashOptions.WarmupSeconds"/> at it, as messages of a
    /// run id of their own that consumers read as fast as they come; the rest is drained, so the run
    /// starts on an empty queue with the service's write and read paths compiled. Not judged.
    /// </summary>
    private async Task WarmUpAsync(HttpClient client)
    {
        var warmupId = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4));
        const double ramp = CrashOptions.WarmupRampSeconds;
        Console.Error.WriteLine($"crash: {options.Label}: warm-up {warmupId}, {options.WarmupWrites} messages rising to {options.Rate}/s over {ramp} s, then at it for {options.WarmupSeconds} s, not judged");
        var workload = new QueueWorkload(options.Url, options.Storage, warmupId);
        var reader = new QueueReader(client, workload.ReadMessageUrl, warmupId, new CrashClock());
        using var stopConsumers = new CancellationTokenSource();
        var consumers = reader.ConsumeAsync(options.Rate, stopConsumers.Token);
        var loop = new WriteLoop(client, workload, new CrashClock());
        await loop.RunAsync(options.Rate, options.WarmupWrites, ramp).ConfigureAwait(false);
        await stopConsumers.CancelAsync().ConfigureAwait(false);
        await consumers.ConfigureAwait(false);
        var drained = await reader.DrainAsync(options.RecoverSeconds).ConfigureAwait(false);
        Console.Error.WriteLine($"crash: {options.Label}: warm-up done, {loop.Records.Count(w => w.Outcome == WriteOutcome.Acked)} of {loop.Records.Count} acknowledged, " +
            $"{reader.Delivered.Count} read{(drained ? ", queue empty" : ", queue NOT empty: the run's drain will meet the rest as foreign messages")}");
        await Task.Delay(TimeSpan.FromSeconds(CrashOptions.WarmupRestSeconds)).ConfigureAwait(false);
    }
}
