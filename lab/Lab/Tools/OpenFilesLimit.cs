using System.Globalization;

namespace Lab.Tools;

/// <summary>
/// This process's soft limit on open files, which siege inherits (every siege user holds a
/// socket); script/siege raises it with <c>ulimit -n</c> before starting tank.
/// </summary>
public static class OpenFilesLimit
{
    /// <summary>The soft limit from <c>/proc/self/limits</c>; null when unknown, long.MaxValue for unlimited.</summary>
    public static long? Current() =>
        File.Exists("/proc/self/limits") ? Parse(File.ReadAllText("/proc/self/limits")) : null;

    /// <summary>Reads the "Max open files  soft  hard  files" row of a /proc/PID/limits text.</summary>
    public static long? Parse(string limits)
    {
        var row = limits.Split('\n').FirstOrDefault(l => l.StartsWith("Max open files", StringComparison.Ordinal));
        var soft = row?["Max open files".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries).FirstOrDefault();
        return soft switch
        {
            null => null,
            "unlimited" => long.MaxValue,
            _ => long.TryParse(soft, NumberStyles.None, CultureInfo.InvariantCulture, out var value) ? value : null,
        };
    }
}
