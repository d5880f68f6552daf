using System.Text.Json;
using Tank.Cpu;
using Tank.Ammo;

namespace Tank.Runner;

/// <summary>
/// meta.json next to each phout.log: what was run, against what, and how the runner itself did.
/// script/bench may also write it by hand; only Storage, Scenario and Schedule are needed by the report.
/// </summary>
public sealed record RunMeta
{
    public static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        WriteIndented = true,
    };

    public string? Storage { get; init; }
    public string? Scenario { get; init; }
    public string? Tag { get; init; }
    public string? Durability { get; init; }
    /// <summary>The service nodes of the sharded cluster the run went through (node 0); 0 when not a cluster.</summary>
    public int Nodes { get; init; }
    public string? Address { get; init; }
    public string LoadType { get; init; } = "rps";
    public string? Schedule { get; init; }
    public int Instances { get; init; }
    public long TimeoutMs { get; init; }
    public string? AmmoFile { get; init; }
    public string? AmmoType { get; init; }
    public long AmmoRequests { get; init; }
    public long Loop { get; init; }
    public long AmmoLimit { get; init; }
    public string? Config { get; init; }
    public DateTimeOffset? Start { get; init; }
    public DateTimeOffset? End { get; init; }
    public long PlannedRequests { get; init; }
    public long SentRequests { get; init; }
    public long Responses { get; init; }
    public long Errors { get; init; }
    public int ExitCode { get; init; }
    public string? Autostop { get; init; }
    public long LatenessP50Us { get; init; }
    public long LatenessP99Us { get; init; }
    public long LatenessMaxUs { get; init; }
    /// <summary>CPU seconds per process during the measured part (tank itself included).</summary>
    public IReadOnlyList<CpuUsage> Cpu { get; init; } = [];
    public double CpuWallSeconds { get; init; }
    public int Cores { get; init; }
    public string? WarmupSchedule { get; init; }
    public long WarmupResponses { get; init; }
    public long WarmupErrors { get; init; }
    public long WarmupP99Us { get; init; }
    public string Runner { get; init; } = "IntegrationService tank (local runner)";

    public static RunMeta? TryRead(string path) =>
        File.Exists(path) ? JsonSerializer.Deserialize<RunMeta>(File.ReadAllText(path), Json) : null;

    public void Write(string path) => File.WriteAllText(path, JsonSerializer.Serialize(this, Json) + "\n");
}
