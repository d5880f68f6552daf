using Lab.Cluster;
using Lab.Report;
using Tank.Ammo;
using Tank.Ammo.Workloads;

namespace Lab.Bench;

/// <summary><c>lab bench</c>'s options, parsed (see <see cref="Commands.BenchCommand"/>).</summary>
public sealed record BenchOptions
{
    public bool Quick { get; init; }
    /// <summary>A profile file read over lab/profiles/default.yaml (and quick.yaml with --quick); null: none.</summary>
    public string? Profile { get; init; }
    /// <summary>Null: every architecture of the catalogue.</summary>
    public IReadOnlyList<string>? Storages { get; init; }
    /// <summary>Null: the default scenarios (the key-value ones with --cluster).</summary>
    public IReadOnlyList<string>? Scenarios { get; init; }
    public double SloMs { get; init; } = 10;
    public long Seed { get; init; } = 1;
    public bool CrossCheck { get; init; }
    /// <summary>0: no cluster runs.</summary>
    public int ClusterNodes { get; init; }
    /// <summary>How often each cell's capacity search and confirmation run; null: the profile's (3, or 1 with --quick).</summary>
    public int? Repeat { get; init; }
    /// <summary>A YCSB workload: the matrix becomes that workload on every architecture with authors or key-value pairs.</summary>
    public string? Workload { get; init; }
    /// <summary>The key distribution of every keyed scenario; null: uniform (a workload: its own default).</summary>
    public string? Distribution { get; init; }
    public double ZipfTheta { get; init; } = 0.99;
    /// <summary>The generator on the first core, the service and its servers on the others (cgroup v1 cpusets).</summary>
    public bool Pin { get; init; }
    /// <summary>Servers (script/services names) held to a CPU quota in cores for the whole run: a regression on purpose.</summary>
    public IReadOnlyDictionary<string, double> Throttles { get; init; } = new Dictionary<string, double>();
    public required string ServiceDll { get; init; }
    public required string Root { get; init; }
    public int Port { get; init; } = 18080;
    public int ClusterPort { get; init; } = 18180;
}
