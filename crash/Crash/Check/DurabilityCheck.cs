using System.Globalization;
using Harness.Catalogue;
using Crash.Matrix;
using IntegrationService.Http;
using IntegrationService.Storage;

namespace Crash.Check;

/// <summary>
/// Whether a run lost more than the architecture promises for the fault. A promise covers writes:
/// nothing, every acknowledged write; a window (and a snapshot, taken as a window of its stated
/// interval), every write acknowledged more than the window before the fault; anything, none. A covered
/// write that is gone fails the row, unless a queue's at-most-once read path accounts for it (a read in
/// doubt took a message nobody received). Losses allowed so are shown in the check's notes, not passed in
/// silence; a window no write was old enough to test is "not checked". What no promise allows (a value
/// never written, a key never read back, an API that never came back, a 500 instead of a 503) always fails.
/// </summary>
public static class DurabilityCheck
{
    public static RowCheck Judge(RowFacts facts, FaultSpec fault, StorageDescription entry)
    {
        var promised = fault.Promised(entry);
        var promise = $"{Name(fault.Promise)}: {promised}";
        var keepsAll = promised == Loss.Nothing;
        // A failover of asynchronous replication may lose any acknowledged write the replica had not received: counted and
        // shown, never a failure; but a value never written, or a message never sent, still is one.
        var anything = promised is Loss.Anything or Loss.Unreplicated;
        var corruptible = promised == Loss.Anything;
        var queue = facts.Kind == CrashKind.Queue;
        var atMostOnce = queue && facts.ReadPath == ReadPath.AtMostOnce;
        // A message acknowledged and never delivered is lost, whatever else happened (Jepsen's total
        // queue). An at-most-once read path may account for some: a read in doubt took a message nobody received.
        long? allowedLost = anything ? null : atMostOnce ? facts.ReadsInDoubt : 0;
        // The catalogue's word for the path read decides whether a message may come twice; and a snapshot
        // restored after the crash holds messages read since it was taken: they come again.
        var pathDelivery = facts.ReadPath == ReadPath.AtLeastOnce ? entry.Delivery?.Leased : entry.Delivery?.Read;
        var duplicatesAllowed = pathDelivery == QueueDelivery.AtLeastOnce || !keepsAll
            || (pathDelivery == QueueDelivery.AtMostOnceUntilFailover && fault.Promise == Promise.Failover);
        var windowMs = fault.WindowMs(entry);

        var problems = new List<string>();
        var notes = new List<string>();
        // A fault that did not happen proves nothing about the promise.
        if (facts.FaultExitCode is { } code && code != 0) problems.Add($"the fault command failed (exit code {code})");
        if (facts.FaultError is { } error) problems.Add($"the fault did not happen: {error}");
        if (facts.Acked == 0) problems.Add("no write was acknowledged");
        if (!facts.ApiCameBack) problems.Add("the API did not answer again after the fault");
        if (facts.ServerErrors > 0) problems.Add($"{facts.ServerErrors} writes answered a 5xx other than 503 (a backend's failure must be a 503 with Retry-After)");
        if (facts.Unverified > 0) problems.Add($"{facts.Unverified} acknowledged keys could not be read back");

        var readPath = queue ? $"{ReadPathName(facts.ReadPath)} read path" : "";
        string? notChecked = null;
        long? beyond = null;
        if (keepsAll)
        {
            if (facts.Lost > allowedLost)
                problems.Add(atMostOnce ? $"{facts.Lost} acknowledged messages lost, more than the {allowedLost} reads in doubt ({promise})"
                    : queue ? $"{facts.Lost} acknowledged messages lost ({readPath}, {promise})"
                    : $"{facts.Lost} acknowledged writes lost ({promise})");
            else if (facts.Lost > 0)
                notes.Add($"lost {facts.Lost} ({readPath}: {facts.ReadsInDoubt} reads in doubt)");
            if (facts.Stale > 0) problems.Add($"{facts.Stale} keys went back to an older acknowledged value ({promise})");
            if (facts.CacheDisagreements > 0) problems.Add($"{facts.CacheDisagreements} keys read differently through the cache than through the store behind it");
        }
        else if (!anything)
        {
            // The writes a window covers are those acknowledged more than the window before the fault; a run
            // whose oldest write still to keep was younger than that tested nothing of the promise.
            notChecked = windowMs is null ? "the catalogue states no lossWindowMs"
                : facts.LostAgesMs is null ? "the lost writes' ages are not known"
                : !(facts.OldestHeldAgeMs > windowMs) ? "no write older than the window"
                : null;
            var lostAges = facts.LostAgesMs ?? [];
            beyond = notChecked is null ? lostAges.Count(age => age > windowMs) : null;
            var oldest = lostAges.Count > 0 ? lostAges.Max() : 0;
            var window = windowMs is { } w ? Ms(w) + " window" : "window";
            var lostWhat = queue ? "messages lost" : "keys lost or stale";
            if (beyond > allowedLost)
                problems.Add((queue ? $"{beyond} messages acknowledged more than the {window} before the fault lost"
                        : $"{beyond} keys lost or stale by writes acknowledged more than the {window} before the fault")
                    + $" (the oldest {Ms(oldest)} before it)" + (atMostOnce ? $", more than the {allowedLost} reads in doubt" : "") + $" ({promise})");
            else if (beyond > 0)
                notes.Add($"{lostAges.Count} {lostWhat}: {lostAges.Count - beyond} within the {window}, {beyond} older ({readPath}: {facts.ReadsInDoubt} reads in doubt)");
            else if (lostAges.Count > 0)
                notes.Add($"{lostAges.Count} {lostWhat}, all within the {window} (the oldest {Ms(oldest)} before the fault)");
            else if (facts.Lost + facts.Stale > 0)
                notes.Add($"lost {facts.Lost}, {facts.Stale} stale");
        }
        else if (facts.Lost + facts.Stale > 0)
        {
            notes.Add($"lost {facts.Lost}, {facts.Stale} stale ({promise})");
        }
        if (!duplicatesAllowed && facts.Duplicated > 0) problems.Add($"{facts.Duplicated} messages delivered more than once ({pathDelivery ?? "no read path"}, {promise})");
        // At most once until a failover allows a duplicate only where a leader about to lose its place could have
        // confirmed the first delivery: a read sent from the fault's start (less the read's timeout: one in flight) until
        // one failure detection after its end (a frozen leader wakes and confirms acks before it learns it was replaced).
        if (duplicatesAllowed && keepsAll && pathDelivery == QueueDelivery.AtMostOnceUntilFailover && fault.Promise == Promise.Failover && facts.Duplicated > 0)
        {
            if (facts.Duplicates is { FaultStartedS: { } started, FaultEndedS: { } ended } times)
            {
                var from = started - times.ReadTimeoutS;
                var to = ended + (entry.Replication?.DetectionMs ?? 0) / 1000.0;
                var outside = times.FirstReadsS.Count(s => s < from || s > to);
                var span = string.Create(CultureInfo.InvariantCulture, $"{from:0.##}–{to:0.##} s");
                if (outside > 0)
                    problems.Add($"{outside} of {facts.Duplicated} messages delivered more than once were first read outside the failover ({span}): {pathDelivery} allows a duplicate only there");
                else
                    notes.Add($"{facts.Duplicated} delivered more than once, each first read during the failover ({span}), as {pathDelivery} allows");
            }
            else
            {
                notes.Add($"{facts.Duplicated} delivered more than once; when they were first read is not known, so the failover's bound was not checked");
            }
        }
        if (!corruptible && facts.Changed > 0) problems.Add($"{facts.Changed} keys hold a value never written or refused");
        if (!corruptible && facts.Unexpected > 0) problems.Add($"{facts.Unexpected} messages delivered that were never written");
        return new RowCheck(Name(fault.Promise), promised, allowedLost, duplicatesAllowed, problems)
        {
            WindowMs = windowMs,
            LostBeyondWindow = beyond,
            NotChecked = notChecked,
            Notes = notes,
        };
    }

    /// <summary>The catalogue's field name for a promise.</summary>
    public static string Name(Promise promise) => promise switch
    {
        Promise.PowerLoss => "powerLoss",
        Promise.Failover => "failoverLoss",
        _ => "processCrash",
    };

    private static string ReadPathName(ReadPath? path) => path == ReadPath.AtMostOnce ? "at-most-once" : "at-least-once";

    private static string Ms(long ms) => string.Create(CultureInfo.InvariantCulture, $"{ms} ms");
}
