using Harness.Catalogue;
using Harness.Processes;
using IntegrationService.Http;

namespace Lab.Bench;

/// <summary>What every step of a bench run shares: options, profile, catalogue, paths.</summary>
public sealed record BenchContext(BenchOptions Options, BenchProfile Profile, IReadOnlyList<StorageDescription> Catalogue, string RunDir, CancellationToken Cancel)
{
    /// <summary>The servers this run started and measures (script/services names); null: all of them (settle tries every one it knows).</summary>
    public IReadOnlyList<string>? RunServers { get; init; }

    public string LoadYaml => Path.Combine(Options.Root, "tank", "load.yaml");

    public string KvPrefillYaml => Path.Combine(Options.Root, "tank", "configs", "kv-prefill.yaml");

    /// <summary>The servers and caches an architecture runs on (script/services names).</summary>
    public IReadOnlyList<string> Servers(string storage) =>
        Catalogue.FirstOrDefault(a => a.Name == storage) is { } a ? [.. a.Servers, .. a.Caches] : [];

    public string Durability(string storage) => Catalogue.FirstOrDefault(a => a.Name == storage)?.Durability.Text ?? "";

    /// <summary>Runs one of the service's tools (seed, fill-queue, settle) from its Release build.</summary>
    public string ServiceTool(params string[] args) => ProcessRunner.Checked("dotnet", [Options.ServiceDll, .. args], Cancel);
}
