using Harness.Catalogue;
using Crash.Matrix;
using IntegrationService.Http;
using IntegrationService.Storage;

namespace Crash.Check;

/// <summary>
/// Whether a run lost more than the architecture promises for the fault. Loss a promise or a queue's
/// read path allows (redis-rdb's since-snapshot on a kill, a window on a power loss, a message taken by
/// a read in doubt on an at-most-once path) is a measurement, shown in the check's notes, not a failure;
/// what no promise allows (a value never written, a key never read back, an API that never came
/// back, a 500 instead of a 503) always is.
/// </summary>
public static class DurabilityCheck
{
    public static RowCheck Judge(RowFacts facts, FaultSpec fault, StorageDescription entry)
    {
        var promised = fault.Promised(entry);
        var keepsAll = promised == Loss.Nothing;
        var anything = promised == Loss.Anything;
        var queue = facts.Kind == CrashKind.Queue;
        // A message acknowledged and never delivered is lost, whatever else happened (Jepsen's total
        // queue). An at-most-once read path may account for some: a read in doubt took a message nobody received.
        var readsMayLose = queue && facts.ReadPath == ReadPath.AtMostOnce ? facts.ReadsInDoubt : 0;
        long? allowedLost = keepsAll ? readsMayLose : null;
        // A snapshot restored after the crash holds messages read since it was taken: they come again.
        var duplicatesAllowed = entry.Delivery == QueueDelivery.AtLeastOnce || facts.ReadPath == ReadPath.AtLeastOnce || !keepsAll;

        var problems = new List<string>();
        // A fault that did not happen proves nothing about the promise.
        if (facts.FaultExitCode is { } code && code != 0) problems.Add($"the fault command failed (exit code {code})");
        if (facts.Acked == 0) problems.Add("no write was acknowledged");
        if (!facts.ApiCameBack) problems.Add("the API did not answer again after the fault");
        if (facts.ServerErrors > 0) problems.Add($"{facts.ServerErrors} writes answered a 5xx other than 503 (a backend's failure must be a 503 with Retry-After)");
        if (facts.Unverified > 0) problems.Add($"{facts.Unverified} acknowledged keys could not be read back");
        var notes = new List<string>();
        if (allowedLost is { } allowed && facts.Lost > allowed)
            problems.Add(!queue ? $"{facts.Lost} acknowledged writes lost ({Name(fault.Promise)}: {promised})"
                : facts.ReadPath == ReadPath.AtMostOnce ? $"{facts.Lost} acknowledged messages lost, more than the {allowed} reads in doubt ({Name(fault.Promise)}: {promised})"
                : $"{facts.Lost} acknowledged messages lost ({ReadPathName(facts.ReadPath)} read path, {Name(fault.Promise)}: {promised})");
        else if (allowedLost is not null && facts.Lost > 0)
            notes.Add($"lost {facts.Lost} ({ReadPathName(facts.ReadPath)} read path: {facts.ReadsInDoubt} reads in doubt)");
        if (keepsAll && facts.Stale > 0) problems.Add($"{facts.Stale} keys went back to an older acknowledged value ({Name(fault.Promise)}: {promised})");
        if (keepsAll && facts.CacheDisagreements > 0) problems.Add($"{facts.CacheDisagreements} keys read differently through the cache than through the store behind it");
        if (!duplicatesAllowed && facts.Duplicated > 0) problems.Add($"{facts.Duplicated} messages delivered more than once ({entry.Delivery}, {Name(fault.Promise)}: {promised})");
        if (!anything && facts.Changed > 0) problems.Add($"{facts.Changed} keys hold a value never written or refused");
        if (!anything && facts.Unexpected > 0) problems.Add($"{facts.Unexpected} messages delivered that were never written");
        return new RowCheck(Name(fault.Promise), promised, allowedLost, duplicatesAllowed, problems) { Notes = notes };
    }

    private static string ReadPathName(ReadPath? path) => path == ReadPath.AtMostOnce ? "at-most-once" : "at-least-once";

    /// <summary>The catalogue's field name for a promise.</summary>
    public static string Name(Promise promise) => promise == Promise.PowerLoss ? "powerLoss" : "processCrash";
}
