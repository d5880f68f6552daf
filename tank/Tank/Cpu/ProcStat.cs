using System.Globalization;

namespace Tank.Cpu;

/// <summary>
/// The fields of one <c>/proc/PID/stat</c> line that CPU accounting needs, in clock ticks.
/// The command name (field 2) is in parentheses and may itself hold spaces and ')', so the
/// numeric fields are counted from the last ')'.
/// </summary>
public sealed record ProcStat(int Pid, int ParentPid, long UserTicks, long SystemTicks, long ChildUserTicks, long ChildSystemTicks)
{
    /// <summary>CPU of the process itself plus that of its children it has already reaped (fields 14–17).</summary>
    public long OwnAndReapedTicks => UserTicks + SystemTicks + ChildUserTicks + ChildSystemTicks;

    public static ProcStat Parse(string line)
    {
        var close = line.LastIndexOf(')');
        var space = line.IndexOf(' ');
        if (close < 0 || space <= 0 || space > close) throw new FormatException($"not a /proc/PID/stat line: '{line}'");
        // After ") " come field 3 (state), 4 (ppid), …: field N is at index N - 3.
        var fields = line[(close + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 15) throw new FormatException($"a /proc/PID/stat line has at least 17 fields: '{line}'");
        return new ProcStat(
            int.Parse(line[..space], CultureInfo.InvariantCulture),
            int.Parse(fields[4 - 3], CultureInfo.InvariantCulture),
            long.Parse(fields[14 - 3], CultureInfo.InvariantCulture),
            long.Parse(fields[15 - 3], CultureInfo.InvariantCulture),
            long.Parse(fields[16 - 3], CultureInfo.InvariantCulture),
            long.Parse(fields[17 - 3], CultureInfo.InvariantCulture));
    }
}
