using System.Globalization;

namespace Harness.Processes;

/// <summary>The machine's CPU time from /proc/stat's aggregate "cpu" line: every core, in clock ticks since boot.</summary>
public static class HostStat
{
    /// <summary>Clock ticks per second of /proc/stat (USER_HZ, 100 on Linux).</summary>
    public const double TicksPerSecond = 100;

    /// <summary>The "cpu " line (user nice system idle iowait irq softirq steal …), or null where /proc/stat cannot be read.</summary>
    public static string? CpuLine(string procRoot = "/proc")
    {
        try
        {
            return File.ReadLines(Path.Combine(procRoot, "stat")).FirstOrDefault(l => l.StartsWith("cpu ", StringComparison.Ordinal));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { return null; }
    }

    /// <summary>The fields of a "cpu" line after its name, in ticks.</summary>
    public static long[] Fields(string cpuLine)
    {
        var fields = cpuLine.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Select(f => long.Parse(f, CultureInfo.InvariantCulture)).ToArray();
        return fields.Length >= 4 ? fields : throw new FormatException($"not a /proc/stat cpu line: '{cpuLine}'");
    }

    /// <summary>Idle ticks of every core since boot (idle and iowait: nothing to run); null where /proc/stat cannot be read.</summary>
    public static long? IdleTicks(string procRoot = "/proc")
    {
        try
        {
            return CpuLine(procRoot) is { } line && Fields(line) is var f ? f[3] + (f.Length > 4 ? f[4] : 0) : null;
        }
        catch (FormatException) { return null; }
    }
}
