using Harness.Processes;
using System.Diagnostics;
using Crash.Control;

namespace Crash.Tests;

/// <summary>
/// The server faults on a real process (a <c>sleep</c> standing in for a server) through a stand-in
/// for script/services that names its pid and logs what it is asked to do.
/// </summary>
public sealed class ServerFaultTests : IDisposable
{
    private readonly StandInServices _services = new();
    private Process Server => _services.Server;
    private string Dir => _services.Dir;

    public void Dispose() => _services.Dispose();

    private string Calls => Path.Combine(Dir, "calls");

    private FaultContext Fault(double stopSeconds = 0.6)
    {
        var control = _services.Control($"""
              pid) echo {Server.Id} ;;
              up) if kill -0 {Server.Id} 2>/dev/null; then state=alive; else state=gone; fi; echo "$* $state" >>"{Calls}" ;;
            """);
        return new FaultContext(control, new ServiceUnderTest(Dir, "http://127.0.0.1:1", Path.Combine(Dir, "service.log")),
            ["fake"], stopSeconds, new FaultLog(Path.Combine(Dir, "fault.log")));
    }

    [Fact]
    public void ADbKillKillsTheServerAndStartsItOnceItIsGone()
    {
        Assert.Equal(0, ServerFaults.KillAndRestart(Fault()));
        Assert.True(Server.WaitForExit(2000));
        Assert.Equal(["up fake gone"], File.ReadAllLines(Calls));
        Assert.Contains($"==> fault: kill -9 fake (pid {Server.Id})", File.ReadAllText(Path.Combine(Dir, "fault.log")));
    }

    [Fact]
    public async Task ADbStopStopsTheServerForTheStopTimeAndThenContinuesIt()
    {
        var fault = Task.Run(() => ServerFaults.StopAndContinue(Fault(stopSeconds: 3)));
        // A busy machine may take a while to get there: wait for the stop, within the stop time.
        var deadline = DateTime.UtcNow.AddSeconds(2.5);
        while (Signals.State(Server.Id) != 'T' && DateTime.UtcNow < deadline) await Task.Delay(50);
        Assert.Equal('T', Signals.State(Server.Id));
        Assert.Equal(0, await fault);
        Assert.NotEqual('T', Signals.State(Server.Id));
    }

    [Fact]
    public void TheWatchdogContinuesAStoppedServerThatCrashNeverContinued()
    {
        var stopped = StoppedProcesses.Stop([Server.Id], seconds: 1, graceSeconds: 1);
        // SIGSTOP lands asynchronously (seen: still 'R' right after the kill on a busy machine): wait
        // for it, well before the watchdog's 2 s.
        var stopDeadline = DateTime.UtcNow.AddSeconds(1.5);
        while (Signals.State(Server.Id) != 'T' && DateTime.UtcNow < stopDeadline) Thread.Sleep(10);
        Assert.Equal('T', Signals.State(Server.Id));
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (Signals.State(Server.Id) == 'T' && DateTime.UtcNow < deadline) Thread.Sleep(50);
        Assert.NotEqual('T', Signals.State(Server.Id));
        stopped.Dispose();
    }

    [Fact]
    public void AServerThatIsNotRunningFailsTheFaultWithAMessage()
    {
        var fault = Fault() with { Targets = ["missing"] };
        File.WriteAllText(Path.Combine(Dir, "services"), "#!/bin/sh\necho 'error: missing is not running' >&2; exit 1\n");
        var e = Assert.Throws<InvalidOperationException>(() => ServerFaults.KillAndRestart(fault));
        Assert.Contains("pid missing' exited 1: error: missing is not running", e.Message);
    }
}
