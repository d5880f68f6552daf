using Harness.Processes;
using System.Globalization;

namespace Crash.Control;

/// <summary>
/// The faults of <see cref="Matrix.Faults"/>, carried out: each returns its exit code (0: the fault
/// happened and the servers or the service were started again) and logs what it did.
/// </summary>
internal static class ServerFaults
{
    private static readonly TimeSpan GoneTimeout = TimeSpan.FromSeconds(10);

    /// <summary>SIGKILL every target's main processes, then <c>script/services up</c> once they are gone.</summary>
    public static int KillAndRestart(FaultContext fault)
    {
        var killed = new List<int>();
        foreach (var server in fault.Targets)
        {
            var pids = fault.Servers.Pids(server);
            fault.Log.Line($"kill -9 {server} (pid {Join(pids)})");
            foreach (var pid in pids) Signals.Send(pid, Signals.Kill);
            killed.AddRange(pids);
        }
        // Restart only once the processes are gone: a dying process can already look dead to script/services
        // (its command line unreadable) while it still holds its port, and `up` then refuses the port as taken
        // by another server (seen with Tarantool).
        var deadline = DateTime.UtcNow + GoneTimeout;
        while (killed.Any(Signals.Alive) && DateTime.UtcNow < deadline) Thread.Sleep(50);
        return fault.Servers.Up(fault.Targets, fault.Log) ? 0 : 1;
    }

    /// <summary>SIGSTOP every target's processes (PostgreSQL's backends too) for the stop time, then SIGCONT, whatever happens meanwhile.</summary>
    public static int StopAndContinue(FaultContext fault)
    {
        var pids = fault.Targets.SelectMany(fault.Servers.AllPids).ToList();
        fault.Log.Line(string.Create(CultureInfo.InvariantCulture, $"SIGSTOP {string.Join(' ', fault.Targets)} ({pids.Count} processes) for {fault.StopSeconds} s"));
        using (StoppedProcesses.Stop(pids, fault.StopSeconds))
        {
            Thread.Sleep(TimeSpan.FromSeconds(fault.StopSeconds));
        }
        return 0;
    }

    /// <summary>How long a failover fault waits for the replicated server to name a new primary.</summary>
    private static readonly TimeSpan FailoverTimeout = TimeSpan.FromSeconds(60);

    /// <summary>
    /// SIGKILL the primary's node (its data server and the agents beside it, as a host crash would), wait until
    /// another node is the primary (logged with the time it took, or that it did not happen), then
    /// <c>script/services up</c> brings the dead node back, as a replica of the new primary.
    /// </summary>
    public static int KillPrimary(FaultContext fault)
    {
        var rc = 0;
        foreach (var server in fault.Targets)
        {
            var (address, pids) = fault.Servers.Primary(server);
            fault.Log.Line($"kill -9 {server}'s primary {address} (pid {Join(pids)})");
            var killedAt = DateTime.UtcNow;
            foreach (var pid in pids) Signals.Send(pid, Signals.Kill);
            WaitForNewPrimary(fault, server, address, killedAt);
            var deadline = DateTime.UtcNow + GoneTimeout;
            while (pids.Any(Signals.Alive) && DateTime.UtcNow < deadline) Thread.Sleep(50);
            if (!fault.Servers.Up([server], fault.Log)) rc = 1;
        }
        return rc;
    }

    /// <summary>
    /// SIGSTOP the primary's node for the stop time (at least three times the failover detection), then SIGCONT:
    /// the replica is promoted meanwhile and the old primary wakes up believing it is still one, until the failover
    /// engine demotes it. The fault ends at the SIGCONT; the matrix brings the topology back whole before the next run.
    /// </summary>
    public static int StopPrimary(FaultContext fault)
    {
        foreach (var server in fault.Targets)
        {
            var (address, pids) = fault.Servers.Primary(server);
            fault.Log.Line(string.Create(CultureInfo.InvariantCulture, $"SIGSTOP {server}'s primary {address} (pid {Join(pids)}) for {fault.StopSeconds} s"));
            var stoppedAt = DateTime.UtcNow;
            using (StoppedProcesses.Stop(pids, fault.StopSeconds))
            {
                WaitForNewPrimary(fault, server, address, stoppedAt, TimeSpan.FromSeconds(fault.StopSeconds));
                var left = stoppedAt + TimeSpan.FromSeconds(fault.StopSeconds) - DateTime.UtcNow;
                if (left > TimeSpan.Zero) Thread.Sleep(left);
            }
            fault.Log.Line($"SIGCONT {address}");
        }
        return 0;
    }

    /// <summary>
    /// Cuts the primary's node off from the other nodes (<paramref name="way"/>: both, or oneway: only what it sends
    /// them is dropped) for the stop time, the service still reaching every node; then heals. The failover engine
    /// promotes a replica meanwhile; the old primary, cut off, may go on taking the service's writes until it hears
    /// of the new one. A partition is healed at crash's exit too, however crash ends.
    /// </summary>
    public static int PartitionPrimaryBothWays(FaultContext fault) => PartitionPrimary(fault, "both");

    /// <summary>As <see cref="PartitionPrimaryBothWays"/>, dropping only what the primary's node sends the others.</summary>
    public static int PartitionPrimaryOneWay(FaultContext fault) => PartitionPrimary(fault, "oneway");

    private static int PartitionPrimary(FaultContext fault, string way)
    {
        foreach (var server in fault.Targets)
        {
            using var atExit = ExitCleanup.Register(() => fault.Servers.Heal(server));
            var startedAt = DateTime.UtcNow;
            var address = fault.Servers.Partition(server, way);
            fault.Log.Line(string.Create(CultureInfo.InvariantCulture, $"partition ({way}) of {server}'s primary {address} from the other nodes for {fault.StopSeconds} s"));
            try
            {
                WaitForNewPrimary(fault, server, address, startedAt, TimeSpan.FromSeconds(fault.StopSeconds));
                var left = startedAt + TimeSpan.FromSeconds(fault.StopSeconds) - DateTime.UtcNow;
                if (left > TimeSpan.Zero) Thread.Sleep(left);
            }
            finally
            {
                fault.Servers.Heal(server);
                fault.Log.Line($"healed the partition of {address}");
            }
        }
        return 0;
    }

    private static void WaitForNewPrimary(FaultContext fault, string server, string old, DateTime since, TimeSpan? limit = null)
    {
        var deadline = since + (limit ?? FailoverTimeout);
        while (DateTime.UtcNow < deadline)
        {
            if (fault.Servers.PrimaryAddress(server) is { } now && now != old)
            {
                fault.Log.Line(string.Create(CultureInfo.InvariantCulture, $"{server}: {now} is the primary {(DateTime.UtcNow - since).TotalSeconds:F1} s after the fault"));
                return;
            }
            Thread.Sleep(250);
        }
        fault.Log.Line(string.Create(CultureInfo.InvariantCulture, $"{server}: no failover within {(limit ?? FailoverTimeout).TotalSeconds:F0} s: {old} is still the primary"));
    }

    /// <summary>SIGKILL the service and start it again.</summary>
    public static int KillService(FaultContext fault)
    {
        fault.Service.KillAndStart(fault.Log);
        return 0;
    }

    /// <summary><c>script/services powercut</c> of every target at once.</summary>
    public static int PowerCut(FaultContext fault)
    {
        fault.Log.Line($"power cut of {string.Join(' ', fault.Targets)}");
        return fault.Servers.Powercut(fault.Targets, fault.Log) ? 0 : 1;
    }

    private static string Join(IEnumerable<int> pids) => string.Join(' ', pids.Select(p => p.ToString(CultureInfo.InvariantCulture)));
}
