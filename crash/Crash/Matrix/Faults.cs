using Crash.Control;
using Crash.RunLengths;

namespace Crash.Matrix;

/// <summary>
/// The fault vocabulary. Adding a fault is a row here with its action (<see cref="ServerFaults"/>);
/// the check picks the promise from the row.
/// </summary>
public static class Faults
{
    public static readonly IReadOnlyList<FaultSpec> All =
    [
        new("db-kill", FaultTarget.Servers, Promise.ProcessCrash, "kill -9 the architecture's servers, then script/services up")
        {
            Run = ServerFaults.KillAndRestart,
            Length = FaultLength.ServersRestart,
        },
        new("service-kill", FaultTarget.Service, Promise.ProcessCrash, "kill -9 the service, then start it again")
        {
            Run = ServerFaults.KillService,
            Length = FaultLength.ServiceRestart,
        },
        new("db-stop", FaultTarget.Servers, Promise.ProcessCrash, "SIGSTOP the servers for --stop-seconds, then SIGCONT (a hung backend)")
        {
            Run = ServerFaults.StopAndContinue,
            Length = FaultLength.StopTime,
        },
        // script/services powercut: the servers run on crash/powerloss's layer (the matrix starts them so), which drops what they did not fsync.
        new("power-loss", FaultTarget.Servers, Promise.PowerLoss,
            "drop what the servers wrote but did not fsync, then restart them (a replicated architecture: every node at once, a coordinated power loss)")
        {
            Run = ServerFaults.PowerCut,
            // The cut itself is instant; what takes time is starting the servers again, as after db-kill.
            Length = FaultLength.ServersRestart,
        },
        // Failover faults: replicated architectures only (the catalogue's replication); the promise is its failoverLoss.
        new("primary-kill", FaultTarget.Servers, Promise.Failover,
            "kill -9 the primary's node (the data server and the agents beside it, as a host crash), wait for the failover, then script/services up brings the node back as a replica")
        {
            Run = ServerFaults.KillPrimary,
            Length = FaultLength.ServersRestart,
        },
        new("primary-partition", FaultTarget.Servers, Promise.Failover,
            "cut the primary's node off from the other nodes, both ways, for --stop-seconds (at least 3 × the failover detection; nftables on loopback), then heal: the service still reaches the old primary")
        {
            Run = ServerFaults.PartitionPrimaryBothWays,
            Length = FaultLength.StopTime,
        },
        new("primary-partition-oneway", FaultTarget.Servers, Promise.Failover,
            "drop only what the primary's node sends the other nodes, for --stop-seconds (at least 3 × the failover detection), then heal")
        {
            Run = ServerFaults.PartitionPrimaryOneWay,
            Length = FaultLength.StopTime,
        },
        new("primary-stop", FaultTarget.Servers, Promise.Failover,
            "SIGSTOP the primary's node for --stop-seconds (at least 3 × the failover detection time), then SIGCONT: a zombie primary that wakes after the failover")
        {
            Run = ServerFaults.StopPrimary,
            Length = FaultLength.StopTime,
        },
    ];

    /// <summary>The faults a matrix runs when --fault is not given (the failover ones on replicated architectures only).</summary>
    public static readonly IReadOnlyList<string> Default = ["db-kill", "service-kill", "db-stop", "primary-kill", "primary-stop", "primary-partition"];

    public static FaultSpec? Find(string name) => All.FirstOrDefault(f => f.Name == name);
}
