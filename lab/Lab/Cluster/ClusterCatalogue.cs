using Harness.Catalogue;
using System.Text.Json;
using Lab.Bench;

namespace Lab.Cluster;

/// <summary>What a cluster asks the service's catalogue (<c>IntegrationService catalogue --json</c>).</summary>
public static class ClusterCatalogue
{
    /// <summary>The architecture the catalogue makes the key-value API's default (the cluster's when no --storage).</summary>
    public static string KvDefault(string json)
    {
        using var document = JsonDocument.Parse(json);
        return document.RootElement.EnumerateArray()
            .Where(e => e.TryGetProperty("isKvDefault", out var d) && d.ValueKind == JsonValueKind.True)
            .Select(e => e.GetProperty("name").GetString())
            .FirstOrDefault() ?? throw new ClusterException("the catalogue names no key-value default (isKvDefault)");
    }

    /// <summary>The server a shardable architecture keeps its data on (the first of its servers), or null when it is not shardable.</summary>
    public static string? StoreServer(string json, string storage) =>
        StorageCatalogue.Parse(json).Entries.FirstOrDefault(a => a.IsCalled(storage) && a.Shardable)?.Servers.FirstOrDefault();
}
