using IntegrationService.Storage;

namespace IntegrationService.Http;

/// <summary><c>GET /storages</c>: the catalogue of architectures (also <c>IntegrationService catalogue --json</c>).</summary>
internal static class StoragesEndpoint
{
    public static IResult Handle(StorageRegistry registry) => Results.Json(Describe(registry));

    public static IEnumerable<StorageDescription> Describe(StorageRegistry registry) =>
        registry.All.Select(a => new StorageDescription(
            a.Name,
            [.. a.Aliases],
            a.Description,
            Serves(a),
            [.. a.Backends],
            [.. a.Caches],
            new DurabilityDescription(a.Facts.Fsync, a.Facts.FsyncIntervalMs, a.Facts.ProcessCrash, a.Facts.PowerLoss, a.Facts.LossWindowMs, a.Durability, a.Facts.ProcessCrashWindowMs),
            a.Delivery,
            a.Shardable,
            string.Equals(a.Name, registry.DefaultName, StringComparison.OrdinalIgnoreCase),
            a.Kv is not null && string.Equals(a.Name, registry.KvDefaultName, StringComparison.OrdinalIgnoreCase),
            a.Replication));

    private static string[] Serves(StorageArchitecture architecture) =>
        [
            .. architecture.Authors is null ? Array.Empty<string>() : [StorageApi.Author],
            .. architecture.Items is null ? Array.Empty<string>() : [StorageApi.Item],
            .. architecture.Queue is null ? Array.Empty<string>() : [StorageApi.Queue],
            .. architecture.Kv is null ? Array.Empty<string>() : [StorageApi.KeyValue],
        ];
}
