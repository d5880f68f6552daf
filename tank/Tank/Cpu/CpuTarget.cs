using Harness.CommandLine;

namespace Tank.Cpu;

/// <summary>A process whose CPU a run accounts for, by the name the report shows.</summary>
public sealed record CpuTarget(string Name, int Pid)
{
    /// <summary>Parses <c>name=pid</c> as given to <c>tank run --cpu</c>.</summary>
    public static CpuTarget Parse(string text)
    {
        var parts = text.Split('=', 2);
        if (parts.Length != 2 || parts[0].Length == 0 || !int.TryParse(parts[1], out var pid) || pid <= 0)
            throw new InputException($"--cpu takes name=pid, got '{text}'");
        return new CpuTarget(parts[0], pid);
    }
}
