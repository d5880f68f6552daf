using Crash.Check;

namespace Crash.Cluster;

/// <summary>
/// A cluster run judged: a node keeps no data (its store outlives it), so nothing acknowledged may be
/// lost or go stale whatever the store; while the node is down its keys, and only its keys, answer
/// 503 — promptly, never a 500 or a hang — and the others' keep being served.
/// </summary>
public static class ClusterCheck
{
    public static RowCheck Judge(CrashResult result, OwnerSplit split)
    {
        var problems = new List<string>();
        if (result.FaultExitCode is { } code && code != 0) problems.Add($"the fault failed (exit code {code})");
        if (result.FaultError is { } error) problems.Add($"the fault did not happen: {error}");
        if (result.Acked == 0) problems.Add("no write was acknowledged");
        if (result.ReadBackReadyS is null) problems.Add("the API did not answer again after the fault");
        if (result.Lost > 0) problems.Add($"{result.Lost} acknowledged writes lost");
        if (result.Stale > 0) problems.Add($"{result.Stale} keys went back to an older acknowledged value");
        if (result.Changed > 0) problems.Add($"{result.Changed} keys hold a value never written or refused");
        if (result.Unverified > 0) problems.Add($"{result.Unverified} acknowledged keys could not be read back");
        if (split.Victim503 == 0) problems.Add("no write to the struck node's keys answered 503 while it was down");
        if (split.VictimOtherStatus > 0) problems.Add($"{split.VictimOtherStatus} writes to the struck node's keys answered neither 503 nor 201");
        if (split.VictimNoAnswer > 0) problems.Add($"{split.VictimNoAnswer} writes to the struck node's keys got no answer within {result.TimeoutMs} ms");
        if (split.OthersFailed > 0) problems.Add($"{split.OthersFailed} writes to keys other nodes own failed while it was down");
        if (split.OwnerMismatches > 0) problems.Add($"{split.OwnerMismatches} keys served by another node than the hashing names");
        return new RowCheck("processCrash", "nothing", 0, false, problems);
    }
}
