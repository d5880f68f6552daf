using System.Globalization;
using System.Text.Json;
using Crash.Check;
using Tank.Runner;

namespace Crash.Queue;

/// <summary>
/// The result of a queue run: the common columns (<see cref="RunResult.Lost"/>,
/// <see cref="RunResult.Duplicated"/>, <see cref="RunResult.InDoubt"/> = writes and reads in doubt)
/// and the rest of the <see cref="QueueLedger"/>.
/// </summary>
public sealed record QueueResult : RunResult
{
    public long Delivered { get; init; }
    public long Deliveries { get; init; }
    public long Unexpected { get; init; }
    public long InDoubtWrites { get; init; }
    public long InDoubtWritesDelivered { get; init; }
    public long ReadsInDoubt { get; init; }
    /// <summary>What the path the consumers read through guarantees end to end (GET /read: at most once).</summary>
    public ReadPath ReadPath { get; init; } = QueueReader.Guarantee;
    /// <summary>Leased path: acknowledgements refused (404: the lease had ended, so the message comes again).</summary>
    public long AcksRefused { get; init; }
    /// <summary>Leased path: acknowledgements with no clear answer.</summary>
    public long AcksInDoubt { get; init; }
    /// <summary>Reads answered 4xx (nothing taken).</summary>
    public long ReadsRefused { get; init; }
    public long Foreign { get; init; }
    /// <summary>Every <c>/read</c> sent, the drain's included.</summary>
    public long Reads { get; init; }
    /// <summary>The drain found the queue empty <see cref="QueueReader.EmptyInARow"/> times in a row within --recover-seconds.</summary>
    public bool DrainComplete { get; init; }
    public double? DrainS { get; init; }
    /// <summary>Acknowledged messages neither delivered nor reached by an incomplete drain.</summary>
    public long Unverified { get; init; }
    public long[] LostExamples { get; init; } = [];
    public long[] DuplicatedExamples { get; init; } = [];
    /// <summary>For each duplicated message, when the read that first took it was sent (s on the run's clock); null in results written before it was kept.</summary>
    public double[]? DuplicatedFirstReadS { get; init; }

    public static QueueResult Read(string path) =>
        JsonSerializer.Deserialize<QueueResult>(File.ReadAllText(path), Json) ?? throw new JsonException($"{path}: empty");

    public override RowFacts Facts() => new(CrashKind.Queue, Acked, Lost, Stale, Unverified: Unverified, Duplicated: Duplicated, Unexpected: Unexpected,
        ReadsInDoubt: ReadsInDoubt, ReadPath: ReadPath, ApiCameBack: ReadBackReadyS is not null && DrainComplete, FaultExitCode: FaultExitCode, ServerErrors: Failed.ServerErrors,
        LostAgesMs: KnownLostAges, OldestHeldAgeMs: OldestHeldAgeMs,
        Duplicates: DuplicatedFirstReadS is { } firstReads ? new DuplicateTimes(firstReads, FaultStartedS, FaultEndedS, TimeoutMs / 1000.0) : null,
        FaultError: FaultError);

    public override string Summary()
    {
        var line = string.Create(CultureInfo.InvariantCulture,
            $"{Label}: {Acked} acked, {Delivered} delivered ({Deliveries} deliveries): {Lost} lost, {Duplicated} duplicated, {Unexpected} unexpected; " +
            $"in doubt: {InDoubtWrites} writes ({InDoubtWritesDelivered} of them delivered), {ReadsInDoubt} reads; {Foreign} foreign; " +
            $"{Failed.Total} writes failed (503 {Failed.Http503}, other {Failed.OtherStatus}, timeout {Failed.Timeout}, conn {Failed.Connection})");
        if (Skipped > 0) line += $"; {Skipped} skipped";
        if (ReadPath == ReadPath.AtLeastOnce) line += $"; leased reads: {AcksRefused} acks refused, {AcksInDoubt} in doubt";
        line += Recovery();
        if (!DrainComplete) line += ReadBackReadyS is null ? "; the API did not answer the drain" : "; the drain never found the queue empty";
        return line;
    }
}
