namespace IntegrationService.Storage;

/// <summary>How a replicated architecture's replicas get a write before it is acknowledged.</summary>
public static class ReplicationMode
{
    /// <summary>The primary acknowledges before any replica has the write: a failover loses what the promoted replica had not received.</summary>
    public const string Asynchronous = "asynchronous";

    /// <summary>The primary acknowledges once a named replica has the write.</summary>
    public const string Synchronous = "synchronous";

    /// <summary>Acknowledged once a majority of the nodes has the write (Raft).</summary>
    public const string Quorum = "quorum";
}

/// <summary>
/// A replicated architecture's topology and failover, as data (<c>GET /storages</c> <c>replication</c>):
/// the nodes holding the data, the processes that vote on failover, the replication mode, the failover
/// engine, how long the primary must be silent before a failover starts, and what a failover may lose
/// of acknowledged writes (a <see cref="Loss"/> word).
/// </summary>
/// <param name="DataNodes">Nodes holding a copy of the data (the primary and its replicas).</param>
/// <param name="Voters">Processes that decide a failover (Sentinels, etcd members, Raft members).</param>
/// <param name="Mode">A <see cref="ReplicationMode"/> word.</param>
/// <param name="Failover">The failover engine, e.g. "redis-sentinel".</param>
/// <param name="DetectionMs">How long the primary must not answer before its failover starts.</param>
/// <param name="FailoverLoss">What a failover may lose of acknowledged writes (<see cref="Loss"/>).</param>
/// <param name="Nodes">The addresses of the nodes the service is given to find the primary (the Sentinels, the cluster's members), without their ports.</param>
/// <param name="Text">The same in words.</param>
public sealed record ReplicationDescription(int DataNodes, int Voters, string Mode, string Failover, int DetectionMs, string FailoverLoss, string[] Nodes, string Text);
