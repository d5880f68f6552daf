using System.Text.Json;

namespace Crash.Catalogue;

/// <summary>The architectures of the catalogue, looked up by name or alias.</summary>
public sealed class StorageCatalogue(IReadOnlyList<CatalogueEntry> entries)
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    public IReadOnlyList<CatalogueEntry> Entries { get; } = entries;

    /// <summary>The catalogue's JSON (an array of architectures, camelCase as the service writes it).</summary>
    public static StorageCatalogue Parse(string json) =>
        new(JsonSerializer.Deserialize<CatalogueEntry[]>(json, Json) ?? throw new JsonException("the catalogue is empty"));

    public static StorageCatalogue Load(string path) => Parse(File.ReadAllText(path));

    /// <summary>The architecture named or aliased <paramref name="name"/> (case-insensitive, as the service matches), or null.</summary>
    public CatalogueEntry? Find(string name) =>
        Entries.FirstOrDefault(e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase))
        ?? Entries.FirstOrDefault(e => e.Aliases.Contains(name, StringComparer.OrdinalIgnoreCase));

    /// <summary>
    /// The architecture a cache's reads are checked against: one serving the same kind on the same
    /// servers without a cache (postgres behind postgres-redis-cache); null for one without caches.
    /// </summary>
    public CatalogueEntry? TruthFor(CatalogueEntry entry, string serves) =>
        entry.Caches.Length == 0 ? null
        : Entries.FirstOrDefault(e => e.Caches.Length == 0 && e.Serves.Contains(serves) && e.Servers.SequenceEqual(entry.Servers));
}
