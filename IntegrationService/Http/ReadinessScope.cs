using IntegrationService.Kv;
using IntegrationService.Kv.Cluster;
using IntegrationService.Storage;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace IntegrationService.Http;

/// <summary>
/// What <c>/health/ready</c> covers: the architectures this node is configured to serve
/// (<see cref="StorageOptions.ReadyArchitectures"/>; by default every one, or on a key-value cluster
/// node only <c>Kv:Default</c>'s) and the backend servers they use. A server none of them uses is
/// neither pinged nor reported, so a node is never unready for a server it does not need (a
/// cluster node without the Redis Cluster).
/// </summary>
public sealed class ReadinessScope
{
    private readonly HashSet<string> _backends;

    public ReadinessScope(StorageRegistry registry, IOptions<StorageOptions> storage, IOptions<KvOptions> kv, IOptions<ClusterOptions> cluster)
    {
        var configured = storage.Value.ReadyArchitectures?
            .Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) ?? [];
        if (configured.Length == 0 && cluster.Value.NodeList.Count > 0) configured = [kv.Value.Default];
        var byName = registry.All.ToDictionary(a => a.Name, StringComparer.OrdinalIgnoreCase);
        var unknown = configured.Where(name => !byName.ContainsKey(name)).ToArray();
        if (unknown.Length > 0)
        {
            throw new OptionsValidationException("Storage", typeof(StorageOptions),
                [$"Storage:ReadyArchitectures names no architecture: {string.Join(", ", unknown)} (known: {string.Join(", ", byName.Keys)})"]);
        }
        Architectures = configured.Length == 0 ? registry.All : configured.Select(name => byName[name]).Distinct().ToArray();
        _backends = Architectures.SelectMany(a => a.Backends.Concat(a.Caches)).ToHashSet(StringComparer.Ordinal);
    }

    /// <summary>The architectures whose state <c>/health/ready</c> reports.</summary>
    public IReadOnlyList<StorageArchitecture> Architectures { get; }

    /// <summary>Whether a readiness check belongs to a backend server of <see cref="Architectures"/>.</summary>
    public bool Includes(HealthCheckRegistration check) => check.Tags.Contains("ready") && _backends.Contains(check.Name);
}
