using System.ComponentModel;
using System.Diagnostics;
using Crash.Control;
using Harness.Processes;
using Tank.Commands;

namespace Crash;

/// <summary>How the fault command went; times in seconds since the run started.</summary>
/// <param name="ExitCode">Null if it could not start or had not ended when the read-back began.</param>
/// <param name="IdleCores">Cores idle on average from the fault's start to its end (all of the machine's, /proc/stat), or null where not read.</param>
public sealed record FaultResult(int? ExitCode, double StartedS, double? EndedS, string StderrTail, string? Error = null, double? IdleCores = null);

/// <summary>
/// Runs the fault at its time, beside the writers: a matrix's fault in crash itself
/// (<see cref="CrashOptions.FaultAction"/>), or <c>--fault-cmd</c> with <c>/bin/bash -c</c>, whose
/// stdout goes to crash's stderr (its stdout holds only the summary) and its stderr to the fault's
/// log file. The file's tail is kept and echoed: a file rather than a pipe, so a server the fault
/// starts in the background and that inherits the descriptor cannot hold the run up.
/// </summary>
internal sealed class FaultInjector(string command, Func<FaultLog, int> fault, CrashClock clock)
{
    private const int TailLines = 20;
    private double _startedS = double.NaN;
    private double _endedS = double.NaN;

    /// <summary>The fault of <paramref name="options"/>: its action, or else its command.</summary>
    public static FaultInjector For(CrashOptions options, CrashClock clock) =>
        new(options.FaultCommand, options.FaultAction ?? (log => RunCommand(options.FaultCommand, log)), clock);

    /// <summary>When the command started, or null before that.</summary>
    public double? StartedS => Volatile.Read(ref _startedS) is var s && double.IsNaN(s) ? null : s;

    /// <summary>When the command ended (however it ended), or null before that.</summary>
    public double? EndedS => Volatile.Read(ref _endedS) is var e && double.IsNaN(e) ? null : e;

    /// <summary>Starts the fault on a thread of its own (not the thread pool, which a busy run may hold up) at <paramref name="atS"/>.</summary>
    public Task<FaultResult> Start(double atS) =>
        Task.Factory.StartNew(() => Run(atS), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private FaultResult Run(double atS)
    {
        var wait = atS - clock.Now;
        if (wait > 0) Thread.Sleep(TimeSpan.FromSeconds(wait));
        var started = clock.Now;
        Volatile.Write(ref _startedS, started);
        var idleBefore = HostStat.IdleTicks();
        Console.Error.WriteLine($"crash: {started,5:F1} s: fault: {command}");
        var stderrFile = Path.GetTempFileName();
        try
        {
            var exitCode = fault(new FaultLog(stderrFile));
            var ended = clock.Now;
            Volatile.Write(ref _endedS, ended);
            var tail = Tail(stderrFile);
            foreach (var line in tail) Console.Error.WriteLine($"crash: fault: {line}");
            Console.Error.WriteLine($"crash: {ended,5:F1} s: fault command exited with {exitCode}");
            return new FaultResult(exitCode, started, ended, string.Join("\n", tail), IdleCores: IdleCores(idleBefore, HostStat.IdleTicks(), ended - started));
        }
        catch (Exception e) when (e is Win32Exception or InvalidOperationException or IOException or FormatException)
        {
            Console.Error.WriteLine($"crash: the fault command could not run: {e.Message}");
            var ended = clock.Now;
            Volatile.Write(ref _endedS, ended);
            return new FaultResult(null, started, ended, "", e.Message);
        }
        finally
        {
            File.Delete(stderrFile);
        }
    }

    /// <summary>
    /// Cores idle on average over <paramref name="seconds"/> between two readings of the machine's idle ticks: what a
    /// fault left free for the failover's processes (three nodes on two cores stretch an election under starvation).
    /// </summary>
    internal static double? IdleCores(long? before, long? after, double seconds) =>
        before is { } b && after is { } a && seconds > 0 ? Math.Round(Math.Max(0, a - b) / HostStat.TicksPerSecond / seconds, 2) : null;

    private static int RunCommand(string command, FaultLog log)
    {
        var start = new ProcessStartInfo("/bin/bash") { UseShellExecute = false };
        foreach (var argument in (string[])["-c", "exec </dev/null 1>&2 2>>\"$1\"; eval \"$2\"", "crash-fault", log.Path, command])
            start.ArgumentList.Add(argument);
        using var process = Process.Start(start) ?? throw new InvalidOperationException("the process did not start");
        process.WaitForExit();
        return process.ExitCode;
    }

    private static string[] Tail(string path)
    {
        var lines = File.ReadAllLines(path);
        return lines[Math.Max(0, lines.Length - TailLines)..];
    }
}
