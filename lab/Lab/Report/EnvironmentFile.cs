using System.Runtime.InteropServices;
using System.Text.Json;

namespace Lab.Report;

/// <summary>
/// A run directory's environment.json: what can be detected here (cores, memory, CPU, OS, .NET) and
/// what the bench knows (server versions, each architecture's durability, a note, the command line).
/// </summary>
public static class EnvironmentFile
{
    public static string Write(string runDir, IReadOnlyDictionary<string, string> servers, IReadOnlyDictionary<string, string> durability,
        string? note, string? command)
    {
        Directory.CreateDirectory(runDir);
        var environment = new Dictionary<string, object?>
        {
            ["machine"] = new Dictionary<string, object?>
            {
                ["cores"] = Environment.ProcessorCount,
                ["memory_mb"] = MemoryMb(),
                ["cpu"] = CpuModel(),
                ["os"] = RuntimeInformation.OSDescription,
                ["dotnet"] = RuntimeInformation.FrameworkDescription,
            },
            ["servers"] = servers,
            ["durability"] = durability,
        };
        if (note is not null) environment["note"] = note;
        if (command is not null) environment["command"] = command;
        var path = Path.Combine(runDir, "environment.json");
        File.WriteAllText(path, JsonSerializer.Serialize(environment, new JsonSerializerOptions { WriteIndented = true }) + "\n");
        return path;
    }

    private static long? MemoryMb()
    {
        if (!File.Exists("/proc/meminfo")) return null;
        var line = File.ReadLines("/proc/meminfo").FirstOrDefault(l => l.StartsWith("MemTotal:", StringComparison.Ordinal));
        return line is null ? null : long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1]) / 1024;
    }

    private static string? CpuModel() =>
        File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim()
            : null;
}
