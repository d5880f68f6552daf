using Harness.CommandLine;
using IntegrationService.Seeding;

namespace Tank.Ammo.Workloads;

/// <summary>
/// The requests of one API that a YCSB workload's operations become. Keys are indices in
/// [0, <see cref="KeyCount"/>); the API maps them onto its ids.
/// </summary>
public abstract class WorkloadApi
{
    /// <summary>The keys a read or update may pick now (grows with a kv insert).</summary>
    public abstract long KeyCount { get; }

    public abstract HttpRequestSpec Read(long key);

    public abstract HttpRequestSpec Update(long key, SplitMix64 random);

    public abstract HttpRequestSpec Insert(SplitMix64 random);

    /// <summary>The API a scenario's workload runs on: the Author API for author-*, the key-value API for kv-*.</summary>
    public static WorkloadApi For(AmmoOptions options) => options.Scenario switch
    {
        Scenario.AuthorRead or Scenario.AuthorWrite or Scenario.AuthorMixed => new AuthorWorkloadApi(options),
        Scenario.KvGet or Scenario.KvPut => new KvWorkloadApi(options),
        _ => throw new InputException($"--workload: scenario {options.Scenario.Name()} has no workload; the workloads run on the Author API (author-*) and the key-value API (kv-*)"),
    };
}
