using Harness.Processes;
using System.Diagnostics;
using System.Text;
using Crash.Control;

namespace Crash.Cluster;

/// <summary>
/// One service node of a script/cluster cluster: its URL and process. A node killed by node-kill is
/// started again by crash exactly as script/cluster had started it (the command line, environment,
/// working directory and log of the killed process, read from /proc before the kill); crash then
/// owns that process and stops it before <c>script/cluster down</c>, which knows only the first one.
/// </summary>
internal sealed class ClusterNode(int index, string url, int pid)
{
    private static readonly TimeSpan BackTimeout = TimeSpan.FromSeconds(60);
    private Process? _restarted;
    private IDisposable? _atExit;

    public int Index { get; } = index;
    public string Url { get; } = url;
    public int Pid { get; private set; } = pid;

    /// <summary>SIGKILL, <paramref name="downSeconds"/> down, then started again and waited for; the exit code.</summary>
    public int KillAndRestart(double downSeconds, FaultLog log)
    {
        var launch = Launch.Of(Pid);
        log.Line($"kill -9 node {Index} ({Url}, pid {Pid}); started again after {downSeconds} s");
        Signals.Send(Pid, Signals.Kill);
        Thread.Sleep(TimeSpan.FromSeconds(downSeconds));
        StopRestarted();
        _restarted = ProcessRunner.StartLogged(launch.Program, launch.Arguments, launch.Log, launch.Directory, launch.Environment);
        _atExit = ExitCleanup.Register(StopRestarted);
        Pid = _restarted.Id;
        if (WaitUntilServing()) return 0;
        log.Line($"node {Index} did not answer {Url}/v0/status within {BackTimeout.TotalSeconds} s of its restart");
        return 1;
    }

    /// <summary>SIGSTOP for <paramref name="seconds"/>, then SIGCONT (<see cref="StoppedProcesses"/>: whatever happens); the exit code.</summary>
    public int Pause(double seconds, FaultLog log)
    {
        log.Line($"SIGSTOP node {Index} ({Url}, pid {Pid}) for {seconds} s");
        using (StoppedProcesses.Stop([Pid], seconds))
        {
            Thread.Sleep(TimeSpan.FromSeconds(seconds));
        }
        return 0;
    }

    /// <summary>Stops the process crash restarted, if any (script/cluster down stops the others).</summary>
    public void StopRestarted()
    {
        if (_restarted is null) return;
        if (!_restarted.HasExited)
        {
            Signals.Send(_restarted.Id, Signals.Term);
            if (!_restarted.WaitForExit(TimeSpan.FromSeconds(10))) _restarted.Kill();
            _restarted.WaitForExit();
        }
        _restarted.Dispose();
        _restarted = null;
        _atExit?.Dispose();
        _atExit = null;
    }

    private bool WaitUntilServing()
    {
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var deadline = DateTime.UtcNow + BackTimeout;
        while (DateTime.UtcNow < deadline && _restarted is { HasExited: false })
        {
            try
            {
                using var answer = client.GetAsync(Url + "/v0/status").GetAwaiter().GetResult();
                if (answer.IsSuccessStatusCode) return true;
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
            {
                // not listening yet
            }
            Thread.Sleep(100);
        }
        return false;
    }

    /// <summary>How a running process was started, from /proc: enough to start it again the same way.</summary>
    private sealed record Launch(string Program, string[] Arguments, string Directory, Dictionary<string, string> Environment, string Log)
    {
        public static Launch Of(int pid)
        {
            var argv = Split(File.ReadAllBytes($"/proc/{pid}/cmdline"));
            var environment = Split(File.ReadAllBytes($"/proc/{pid}/environ"))
                .Select(v => v.Split('=', 2)).Where(v => v.Length == 2)
                .GroupBy(v => v[0], StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Last()[1], StringComparer.Ordinal);
            var directory = new DirectoryInfo($"/proc/{pid}/cwd").LinkTarget ?? "/";
            // Its stdout: script/cluster's node log, which the restarted node appends to (anything else, a pipe: nowhere).
            var log = new FileInfo($"/proc/{pid}/fd/1").LinkTarget is { } target && target.StartsWith('/') && File.Exists(target) ? target : "/dev/null";
            return new Launch(argv[0], argv[1..], directory, environment, log);
        }

        private static string[] Split(byte[] nulSeparated) =>
            Encoding.UTF8.GetString(nulSeparated).Split('\0', StringSplitOptions.RemoveEmptyEntries);
    }
}
