using System.Runtime.InteropServices;
using System.Text.Json;

namespace Tank.Commands;

/// <summary>
/// <c>tank env &lt;run dir&gt; [--server name=version]… [--durability name=text]… [--note text]</c>:
/// writes environment.json with what it can detect (cores, memory, CPU, OS) and what script/bench knows
/// (server versions, each architecture's durability settings).
/// </summary>
public static class EnvCommand
{
    public static int Run(CliArgs args)
    {
        if (args.Positional.Count != 1) throw new TankInputException("env needs exactly one run directory");
        var servers = Pairs(args.All("server"), "server");
        var durability = Pairs(args.All("durability"), "durability");
        var note = args.Get("note");
        args.Reject();
        Directory.CreateDirectory(args.Positional[0]);
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
        var path = Path.Combine(args.Positional[0], "environment.json");
        File.WriteAllText(path, JsonSerializer.Serialize(environment, new JsonSerializerOptions { WriteIndented = true }) + "\n");
        Console.Error.WriteLine($"tank: wrote {path}");
        return 0;
    }

    private static Dictionary<string, string> Pairs(IReadOnlyList<string> values, string name) =>
        values.Select(v => v.Split('=', 2)).ToDictionary(
            p => p.Length == 2 && p[0].Length > 0 ? p[0] : throw new TankInputException($"--{name} takes name=text, got '{string.Join("=", p)}'"),
            p => p[1]);

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
