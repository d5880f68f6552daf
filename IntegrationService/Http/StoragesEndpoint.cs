using IntegrationService.Storage;

namespace IntegrationService.Http;

/// <summary><c>GET /storages</c>: every architecture, what it serves and how durable it is.</summary>
internal static class StoragesEndpoint
{
    public static IResult Handle(StorageRegistry registry) =>
        Results.Json(registry.All.Select(a => new StorageDescription(
            a.Name,
            a.Description,
            a.Durability,
            Serves(a),
            string.Equals(a.Name, registry.DefaultName, StringComparison.OrdinalIgnoreCase))));

    private static string[] Serves(StorageArchitecture architecture) =>
        [
            .. architecture.Authors is null ? Array.Empty<string>() : ["Author"],
            .. architecture.Items is null ? Array.Empty<string>() : ["Item"],
            .. architecture.Queue is null ? Array.Empty<string>() : ["Queue"],
            .. architecture.Kv is null ? Array.Empty<string>() : ["KeyValue"],
        ];
}
