using System.Text.Json.Serialization;

namespace Crash.Cluster;

/// <summary>
/// A cluster run's writes split by the owner of their key (the service's own rendezvous hashing over
/// the nodes of <c>/v0/status</c>) and by whether they were sent while the struck node was down
/// (from the fault's start until it answered again, or was continued): its keys must answer 503,
/// the others' must go on being served.
/// </summary>
public sealed record OwnerSplit
{
    public int Nodes { get; init; }
    /// <summary>The struck node's URL.</summary>
    public string Victim { get; init; } = "";
    public double? OutageStartS { get; init; }
    public double? OutageEndS { get; init; }
    /// <summary>Every write sent, by the index of its key's owner.</summary>
    public long[] WritesByOwner { get; init; } = [];
    /// <summary>Writes sent during the outage to keys the struck node owns…</summary>
    [JsonPropertyName("victim_writes_during_outage")]
    public long VictimWrites { get; init; }
    /// <summary>…answered 503 (as they must be)…</summary>
    [JsonPropertyName("victim_503")]
    public long Victim503 { get; init; }
    /// <summary>…acknowledged (the edges of the window: sent before the node went, or served just after it came back)…</summary>
    public long VictimAcked { get; init; }
    /// <summary>…answered with another status (a 500 would be a bug)…</summary>
    public long VictimOtherStatus { get; init; }
    /// <summary>…or not answered within the request timeout (a hang) or the connection failed.</summary>
    public long VictimNoAnswer { get; init; }
    /// <summary>Writes sent during the outage to keys other nodes own, and those of them not acknowledged (each one a failure).</summary>
    [JsonPropertyName("others_writes_during_outage")]
    public long OthersWrites { get; init; }
    public long OthersFailed { get; init; }
    /// <summary>Acknowledged keys whose relayed read named its owner (<c>X-Kv-Owner</c>, none: node 0), and of them those the hashing here disagrees with.</summary>
    public long OwnerChecked { get; init; }
    public long OwnerMismatches { get; init; }

    /// <summary>Counts <paramref name="writes"/> by owner and outage window.</summary>
    internal static OwnerSplit Compute(IReadOnlyList<WriteRecord> writes, Func<string, int> ownerOf, int nodes, int victim, string victimUrl,
        double? outageStartS, double? outageEndS)
    {
        var byOwner = new long[nodes];
        long victimWrites = 0, victim503 = 0, victimAcked = 0, victimOther = 0, victimNoAnswer = 0, othersWrites = 0, othersFailed = 0;
        foreach (var write in writes.Where(w => w.Key is not null))
        {
            var owner = ownerOf(write.Key!);
            byOwner[owner]++;
            if (outageStartS is not { } start || write.SentS < start || (outageEndS is { } end && write.SentS >= end)) continue;
            if (owner != victim)
            {
                othersWrites++;
                if (write.Class != ResponseClass.Ack) othersFailed++;
                continue;
            }
            victimWrites++;
            switch (write.Class)
            {
                case ResponseClass.Unavailable: victim503++; break;
                case ResponseClass.Ack: victimAcked++; break;
                case ResponseClass.OtherStatus: victimOther++; break;
                default: victimNoAnswer++; break;
            }
        }
        return new OwnerSplit
        {
            Nodes = nodes, Victim = victimUrl, OutageStartS = outageStartS, OutageEndS = outageEndS, WritesByOwner = byOwner,
            VictimWrites = victimWrites, Victim503 = victim503, VictimAcked = victimAcked, VictimOtherStatus = victimOther,
            VictimNoAnswer = victimNoAnswer, OthersWrites = othersWrites, OthersFailed = othersFailed,
        };
    }
}
