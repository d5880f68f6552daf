using Harness.Catalogue;

namespace Lab.Cluster;

/// <summary>What a cluster asks the service's catalogue (<c>IntegrationService catalogue --json</c>).</summary>
public static class ClusterCatalogue
{
    /// <summary>The architecture the catalogue makes the key-value API's default (the cluster's when no --storage).</summary>
    public static string KvDefault(StorageCatalogue catalogue) =>
        catalogue.KvDefault?.Name ?? throw new ClusterException("the catalogue names no key-value default (isKvDefault)");

    /// <summary>The server a shardable architecture keeps its data on (the first of its servers), or null when it is not shardable.</summary>
    public static string? StoreServer(StorageCatalogue catalogue, string storage) =>
        catalogue.Entries.FirstOrDefault(a => a.IsCalled(storage) && a.Shardable)?.Servers.FirstOrDefault();
}
