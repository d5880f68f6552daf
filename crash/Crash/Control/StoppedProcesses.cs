using Harness.Processes;
using System.Globalization;

namespace Crash.Control;

/// <summary>
/// Processes stopped with SIGSTOP (a hung server or node), continued with SIGCONT on
/// <see cref="Dispose"/>, on crash's exit or signal (<see cref="ExitCleanup"/>), and, should crash be
/// killed outright, by a detached watchdog a few seconds after the planned end: a server must never
/// stay stopped under the tests that share it.
/// </summary>
internal sealed class StoppedProcesses : IDisposable
{
    public const double WatchdogGraceSeconds = 5;
    private readonly IReadOnlyList<int> _pids;
    private readonly IDisposable _atExit;
    private int _continued;

    private StoppedProcesses(IReadOnlyList<int> pids)
    {
        _pids = pids;
        _atExit = ExitCleanup.Register(Continue);
    }

    /// <summary>Stops <paramref name="pids"/>, planned to be continued after <paramref name="seconds"/> (the watchdog: <paramref name="graceSeconds"/> later).</summary>
    public static StoppedProcesses Stop(IReadOnlyList<int> pids, double seconds, double graceSeconds = WatchdogGraceSeconds)
    {
        StartWatchdog(pids, seconds + graceSeconds);
        var stopped = new StoppedProcesses(pids);
        foreach (var pid in pids) Signals.Send(pid, Signals.Stop);
        return stopped;
    }

    public void Dispose()
    {
        Continue();
        _atExit.Dispose();
    }

    private void Continue()
    {
        if (Interlocked.Exchange(ref _continued, 1) == 1) return;
        foreach (var pid in _pids) Signals.Send(pid, Signals.Cont);
    }

    // Its own session (setsid), so that neither crash's death nor a Ctrl-C to its process group takes it along;
    // a SIGCONT to a process already running does nothing.
    private static void StartWatchdog(IReadOnlyList<int> pids, double seconds)
    {
        var list = string.Join(' ', pids.Select(p => p.ToString(CultureInfo.InvariantCulture)));
        var script = string.Create(CultureInfo.InvariantCulture, $"sleep {seconds:0.###}; kill -CONT {list} 2>/dev/null; exit 0");
        using var watchdog = ProcessRunner.StartLogged("setsid", ["/bin/sh", "-c", script], "/dev/null");
    }
}
