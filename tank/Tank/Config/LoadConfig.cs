using Tank.Ammo;

namespace Tank.Config;

/// <summary>The parts of a Tank load.yaml the runner executes, after validation and CLI overrides.</summary>
public sealed record LoadConfig
{
    public required string Path { get; init; }
    public required string Address { get; init; }
    public required string LoadType { get; init; }
    public required string Schedule { get; init; }
    /// <summary>Where the schedule text came from (file:line), for error messages.</summary>
    public string ScheduleSource { get; init; } = "schedule";
    public string? AmmoFile { get; init; }
    public AmmoFormat AmmoType { get; init; } = AmmoFormat.Phantom;
    public IReadOnlyList<string> Uris { get; init; } = [];
    public IReadOnlyList<string> Headers { get; init; } = [];
    public string HeaderHttp { get; init; } = "1.0";
    public int Instances { get; init; } = 1000;
    public long TimeoutMs { get; init; } = 11_000;
    public long Loop { get; init; } = -1;
    public long AmmoLimit { get; init; } = -1;
    public IReadOnlyList<(string Text, string Source)> Autostop { get; init; } = [];
}
