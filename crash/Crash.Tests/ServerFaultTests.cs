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
    private readonly string _dir = Directory.CreateTempSubdirectory("crash-faults-").FullName;
    private readonly Process _server = Process.Start("sleep", "60");

    public void Dispose()
    {
        if (!_server.HasExited) _server.Kill();
        _server.Dispose();
        Directory.Delete(_dir, recursive: true);
    }

    private string Calls => Path.Combine(_dir, "calls");

    private FaultContext Fault(double stopSeconds = 0.6)
    {
        var script = Path.Combine(_dir, "services");
        File.WriteAllText(script, $"""
            #!/bin/sh
            case "$1" in
              pid) echo {_server.Id} ;;
              up) if kill -0 {_server.Id} 2>/dev/null; then state=alive; else state=gone; fi; echo "$* $state" >>"{Calls}" ;;
              *) exit 2 ;;
            esac
            """);
        if (!OperatingSystem.IsWindows()) File.SetUnixFileMode(script, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        return new FaultContext(new ServerControl(script), new ServiceUnderTest(_dir, "http://127.0.0.1:1", Path.Combine(_dir, "service.log")),
            ["fake"], stopSeconds, new FaultLog(Path.Combine(_dir, "fault.log")));
    }

    [Fact]
    public void ADbKillKillsTheServerAndStartsItOnceItIsGone()
    {
        Assert.Equal(0, ServerFaults.KillAndRestart(Fault()));
        Assert.True(_server.WaitForExit(2000));
        Assert.Equal(["up fake gone"], File.ReadAllLines(Calls));
        Assert.Contains($"==> fault: kill -9 fake (pid {_server.Id})", File.ReadAllText(Path.Combine(_dir, "fault.log")));
    }

    [Fact]
    public async Task ADbStopStopsTheServerForTheStopTimeAndThenContinuesIt()
    {
        var fault = Task.Run(() => ServerFaults.StopAndContinue(Fault(stopSeconds: 3)));
        // A busy machine may take a while to get there: wait for the stop, within the stop time.
        var deadline = DateTime.UtcNow.AddSeconds(2.5);
        while (Signals.State(_server.Id) != 'T' && DateTime.UtcNow < deadline) await Task.Delay(50);
        Assert.Equal('T', Signals.State(_server.Id));
        Assert.Equal(0, await fault);
        Assert.NotEqual('T', Signals.State(_server.Id));
    }

    [Fact]
    public void TheWatchdogContinuesAStoppedServerThatCrashNeverContinued()
    {
        var stopped = StoppedProcesses.Stop([_server.Id], seconds: 1, graceSeconds: 1);
        // SIGSTOP lands asynchronously (seen: still 'R' right after the kill on a busy machine): wait
        // for it, well before the watchdog's 2 s.
        var stopDeadline = DateTime.UtcNow.AddSeconds(1.5);
        while (Signals.State(_server.Id) != 'T' && DateTime.UtcNow < stopDeadline) Thread.Sleep(10);
        Assert.Equal('T', Signals.State(_server.Id));
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (Signals.State(_server.Id) == 'T' && DateTime.UtcNow < deadline) Thread.Sleep(50);
        Assert.NotEqual('T', Signals.State(_server.Id));
        stopped.Dispose();
    }

    [Fact]
    public void AServerThatIsNotRunningFailsTheFaultWithAMessage()
    {
        var fault = Fault() with { Targets = ["missing"] };
        File.WriteAllText(Path.Combine(_dir, "services"), "#!/bin/sh\necho 'error: missing is not running' >&2; exit 1\n");
        var e = Assert.Throws<InvalidOperationException>(() => ServerFaults.KillAndRestart(fault));
        Assert.Contains("pid missing' exited 1: error: missing is not running", e.Message);
    }
}
