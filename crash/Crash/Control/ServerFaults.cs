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
