using System.Security.Cryptography;

namespace Crash;

/// <summary>
/// One crash-durability test: read the items' values before the run, write at a fixed rate with
/// the fault injected in the middle, wait for the API, read every acknowledged key back and judge it.
/// </summary>
internal sealed class CrashTest(CrashOptions options)
{
    public const int ApiNeverCameBack = 1;

    /// <summary>Every write the run sent, once <see cref="RunAsync"/> has returned.</summary>
    internal IReadOnlyList<WriteRecord> Writes { get; private set; } = [];

    /// <summary>
    /// The result and the exit code: 0 when the run completed (lost data is a result, not an
    /// error), 1 when the API never came back; no result and 1 when the API did not answer before the run.
    /// </summary>
    public async Task<(CrashResult? Result, int ExitCode)> RunAsync()
    {
        var runId = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4));
        using var client = CrashHttp.Create(options.TimeoutMs);
        var workload = CreateWorkload(runId);
        var readBack = new ReadBack(client, workload);
        var probe = workload.ProbeUrl(firstAckedKey: null);
        if (!await readBack.WaitForApiAsync(probe, options.RecoverSeconds).ConfigureAwait(false))
        {
            Console.Error.WriteLine($"crash: GET {probe} got no 2xx or 404 within {options.RecoverSeconds} s; the API is not up, nothing was written");
            return (null, ApiNeverCameBack);
        }
        if (options.WarmupSeconds > 0) await WarmUpAsync(client).ConfigureAwait(false);
        var before = await ReadBeforeAsync(workload, readBack).ConfigureAwait(false);

        Console.Error.WriteLine($"crash: {options.Label}: run {runId}, {options.PlannedWrites} writes at {options.Rate}/s → {options.Url}, fault at {options.FaultAt} s");
        var startedAt = DateTimeOffset.UtcNow;
        var clock = new CrashClock();
        var injector = FaultInjector.For(options, clock);
        var earlyEnd = options.EarlyEnd(() => injector.EndedS);
        var loop = new WriteLoop(client, workload, clock, readAfterAck: options.TruthStorage is not null, earlyEnd);
        var fault = injector.Start(options.FaultAt);
        await loop.RunAsync(options.Rate, options.PlannedWrites).ConfigureAwait(false);
        var ran = Ran(options, loop, earlyEnd);
        var faultResult = await WaitForFaultAsync(fault, injector).ConfigureAwait(false);
        var settledS = await SettleAsync(options, clock).ConfigureAwait(false);
        Writes = loop.Records;

        var histories = CrashResultBuilder.Histories(loop.Records);
        var acked = histories.Where(h => h.Value.Any(w => w.Outcome == WriteOutcome.Acked)).Select(h => h.Key).ToList();
        var firstAcked = loop.Records.FirstOrDefault(w => w.Outcome == WriteOutcome.Acked && w.Key is not null)?.Key;
        Console.Error.WriteLine($"crash: {clock.Now,5:F1} s: writes done; waiting up to {options.RecoverSeconds} s for the API, then reading {acked.Count} keys back");
        double? readyS = await readBack.WaitForApiAsync(workload.ProbeUrl(firstAcked), options.RecoverSeconds).ConfigureAwait(false) ? clock.Now : null;
        var reads = readyS is null
            ? acked.ToDictionary(k => k, _ => ReadValue.Unreadable, StringComparer.Ordinal)
            : await readBack.ReadAllAsync(acked).ConfigureAwait(false);

        var verdicts = new Dictionary<string, KeyVerdict>(StringComparer.Ordinal);
        foreach (var key in acked)
        {
            if (CrashVerifier.Classify(histories[key], reads[key], before.GetValueOrDefault(key)) is { } verdict) verdicts[key] = verdict;
        }
        var result = CrashResultBuilder.Build(new CrashRun(ran, runId, startedAt, loop.Records, loop.Skipped, loop.SkippedNoFreeKey,
            faultResult, readyS, verdicts)) with { SettledS = settledS };
        if (options.TruthStorage is { } truthStorage && readyS is not null)
        {
            result = await CompareWithTruthAsync(result, client, runId, truthStorage, histories.Keys.ToList(), readBack).ConfigureAwait(false);
        }
        return (result, readyS is null ? ApiNeverCameBack : 0);
    }

    /// <summary>
    /// Reads every key written (acknowledged or not: a write answered 503 may have landed) through
    /// the tested architecture and then through the truth architecture; keys both read but
    /// answered differently are stale cache entries.
    /// </summary>
    private async Task<CrashResult> CompareWithTruthAsync(CrashResult result, HttpClient client, string runId, string truthStorage,
        IReadOnlyList<string> keys, ReadBack readBack)
    {
        var reads = await readBack.ReadAllAsync(keys).ConfigureAwait(false);
        var truth = await new ReadBack(client, CreateWorkload(runId, truthStorage)).ReadAllAsync(keys).ConfigureAwait(false);
        var differ = keys.Where(k => reads[k].State != ReadState.Unreadable && truth[k].State != ReadState.Unreadable && reads[k] != truth[k]).ToList();
        return result with
        {
            TruthStorage = truthStorage,
            CacheDisagreements = differ.Count,
            CacheDisagreementExamples = differ.Take(CrashResult.ExamplesPerClass)
                .Select(k => new KeyExample(k, truth[k].Value ?? truth[k].State.ToString(), reads[k].Value ?? reads[k].State.ToString(), $"{options.Storage} answers differently from {truthStorage}"))
                .ToArray(),
        };
    }

    /// <summary>
    /// A ramp of <see cref="CrashOptions.WarmupRampSeconds"/> up to the run's rate, then
    /// <see cref="CrashOptions.WarmupSeconds"/> of writes at it, under a run id of their
    /// own (author and key-value keys of their own; item writes land before the pre-run read, so
    /// the verifier's "before" already holds them). Not judged, not in the result's counts.
    /// </summary>
    private async Task WarmUpAsync(HttpClient client)
    {
        var warmupId = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4));
        const double ramp = CrashOptions.WarmupRampSeconds;
        Console.Error.WriteLine($"crash: {options.Label}: warm-up {warmupId}, {options.WarmupWrites} writes rising to {options.Rate}/s over {ramp} s, then at it for {options.WarmupSeconds} s, not judged");
        var loop = new WriteLoop(client, CreateWorkload(warmupId), new CrashClock());
        await loop.RunAsync(options.Rate, options.WarmupWrites, ramp).ConfigureAwait(false);
        Console.Error.WriteLine($"crash: {options.Label}: warm-up done, {loop.Records.Count(w => w.Outcome == WriteOutcome.Acked)} of {loop.Records.Count} acknowledged");
        await Task.Delay(TimeSpan.FromSeconds(CrashOptions.WarmupRestSeconds)).ConfigureAwait(false);
    }

    private ICrashWorkload CreateWorkload(string runId, string? storage = null)
    {
        var seed = Convert.ToInt32(runId[..7], 16);
        return options.Kind switch
        {
            CrashKind.Author => new AuthorWorkload(options.Url, storage ?? options.Storage, runId, seed),
            CrashKind.KeyValue => new KvWorkload(options.Url, storage ?? options.Storage, runId, seed),
            _ => new ItemWorkload(options.Url, storage ?? options.Storage, options.Items, seed % options.LocationBlocks, options.LocationBlocks),
        };
    }

    /// <summary>The pre-run values the verifier compares with ("back to before the run" is lost); keys unread are left out.</summary>
    private async Task<IReadOnlyDictionary<string, string>> ReadBeforeAsync(ICrashWorkload workload, ReadBack readBack)
    {
        var keys = workload.KeysToReadBefore(options.PlannedWrites);
        if (keys.Count == 0) return new Dictionary<string, string>();
        Console.Error.WriteLine($"crash: reading {keys.Count} keys before the run");
        var values = await readBack.ReadAllAsync(keys).ConfigureAwait(false);
        var known = values.Where(v => v.Value.State == ReadState.Found).ToDictionary(v => v.Key, v => v.Value.Value!, StringComparer.Ordinal);
        if (known.Count < keys.Count)
            Console.Error.WriteLine($"crash: warning: {keys.Count - known.Count} keys could not be read before the run; for them only an empty set counts as lost");
        return known;
    }

    private Task<FaultResult> WaitForFaultAsync(Task<FaultResult> fault, FaultInjector injector) => WaitForFaultAsync(fault, injector, options);

    /// <summary>The options as the run went: where an early end stopped its writes, that is its length.</summary>
    internal static CrashOptions Ran(CrashOptions options, WriteLoop loop, Timeline.EarlyEnd? earlyEnd)
    {
        if (loop.EndedAtS is not { } ended || earlyEnd?.HeldFromSecond is not { } from) return options;
        Console.Error.WriteLine($"crash: {ended,5:F1} s: p99 held under the SLO from {from} s on; the writes end here, before the {options.Seconds} s planned");
        return options.EndedAt(ended, from);
    }

    /// <summary>Runs <see cref="CrashOptions.Settle"/>, if any: when the servers were whole again (seconds since the start), null without one or if they did not become so.</summary>
    internal static async Task<double?> SettleAsync(CrashOptions options, CrashClock clock)
    {
        if (options.Settle is not { } settle) return null;
        Console.Error.WriteLine($"crash: {clock.Now,5:F1} s: waiting for the servers to be whole before reading anything back");
        var whole = await Task.Run(settle).ConfigureAwait(false);
        if (!whole) Console.Error.WriteLine("crash: warning: the servers did not become whole; reading back anyway");
        return whole ? clock.Now : null;
    }

    /// <summary>The fault's result; if it is still running, its start only (the read-back waits no longer than --recover-seconds for it).</summary>
    internal static async Task<FaultResult> WaitForFaultAsync(Task<FaultResult> fault, FaultInjector injector, CrashOptions options)
    {
        if (await Task.WhenAny(fault, Task.Delay(TimeSpan.FromSeconds(options.RecoverSeconds))).ConfigureAwait(false) == fault)
            return await fault.ConfigureAwait(false);
        Console.Error.WriteLine($"crash: warning: the fault command still runs {options.RecoverSeconds} s after the writes ended; reading back anyway");
        return new FaultResult(null, injector.StartedS ?? options.FaultAt, null, "", "still running when the read-back began");
    }
}
