using System.Globalization;
using System.Runtime.InteropServices;

namespace Harness.Processes;

/// <summary>
/// Signals to any process by id (the one kill(2) of the tools): the crash tester stops, continues and
/// kills servers it did not start, the lab stops its cluster nodes and the service it started,
/// and .NET's <see cref="System.Diagnostics.Process.Kill()"/> sends SIGKILL only.
/// </summary>
public static class Signals
{
    // Linux's numbers (x86-64 and arm64 alike).
    public const int Kill = 9;
    public const int Term = 15;
    public const int Cont = 18;
    public const int Stop = 19;

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int SysKill(int pid, int signal);

    /// <summary>True if the signal was delivered (false: no such process).</summary>
    public static bool Send(int pid, int signal) => SysKill(pid, signal) == 0;

    /// <summary>The process exists (signal 0 checks without sending anything).</summary>
    public static bool Alive(int pid) => SysKill(pid, 0) == 0;

    /// <summary>The process exists and its command line contains <paramref name="word"/> (a recycled pid does not count).</summary>
    public static bool IsRunning(int? pid, string word)
    {
        try
        {
            return pid is { } p && File.ReadAllText($"/proc/{p}/cmdline").Replace('\0', ' ').Contains(word, StringComparison.Ordinal);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>The state letter of /proc/PID/stat (R, S, T for stopped, Z…), or null when the process is gone.</summary>
    public static char? State(int pid) => Stat(pid) is { } fields ? fields[0][0] : null;

    /// <summary>The processes whose parent is <paramref name="pid"/> (PostgreSQL's backends under its postmaster).</summary>
    public static IReadOnlyList<int> Children(int pid)
    {
        var children = new List<int>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var child)) continue;
            if (Stat(child) is { } fields && fields[1] == pid.ToString(CultureInfo.InvariantCulture)) children.Add(child);
        }
        return children;
    }

    /// <summary>/proc/PID/stat's fields after the command name (state, parent, …); null when the process is gone.</summary>
    private static string[]? Stat(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            // The command name is in parentheses and may hold spaces and parentheses itself: split after the last ')'.
            return stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
