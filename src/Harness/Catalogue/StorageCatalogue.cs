using System.Text.Json;
using Harness.Processes;
using IntegrationService.Http;
using IntegrationService.Storage;

namespace Harness.Catalogue;

/// <summary>
/// The service's catalogue of architectures, the one reader every tool shares: read from the service
/// itself (<c>dotnet IntegrationService.dll catalogue --json</c>, nothing contacted), from a running
/// service's <c>GET /storages</c>, or from a file, into the service's own contract records
/// (<see cref="StorageDescription"/>). The tools name no architecture of their own, so a new one in the
/// catalogue is measured without touching them.
/// </summary>
public sealed class StorageCatalogue(IReadOnlyList<StorageDescription> entries)
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    public IReadOnlyList<StorageDescription> Entries { get; } = entries;

    /// <summary>Parses the catalogue's JSON (an array of architectures, camelCase as the service writes it).</summary>
    public static StorageCatalogue Parse(string json)
    {
        try
        {
            var entries = JsonSerializer.Deserialize<StorageDescription[]>(json, Json) ?? throw new CatalogueException("the catalogue is empty");
            if (entries.Any(e => string.IsNullOrEmpty(e.Name))) throw new CatalogueException("an architecture without a name");
            return new StorageCatalogue(entries.Select(Complete).ToArray());
        }
        catch (JsonException e)
        {
            throw new CatalogueException($"the catalogue is not what the tools expect: {e.Message}");
        }
    }

    // A field an older service did not write reads as empty, not null.
    private static StorageDescription Complete(StorageDescription e) => e with
    {
        Aliases = e.Aliases ?? [],
        Description = e.Description ?? "",
        Serves = e.Serves ?? [],
        Servers = e.Servers ?? [],
        Caches = e.Caches ?? [],
        Durability = e.Durability ?? new DurabilityDescription("", null, Loss.Anything, Loss.Anything, null, ""),
    };

    public static StorageCatalogue Load(string path) => Parse(File.ReadAllText(path));

    /// <summary>Runs <c>dotnet SERVICE.dll catalogue --json</c> (nothing is contacted) and parses its answer.</summary>
    public static StorageCatalogue FromService(string serviceDll, CancellationToken cancel)
    {
        var result = ProcessRunner.Run("dotnet", [serviceDll, "catalogue", "--json"], cancel);
        if (result.ExitCode != 0)
            throw new CatalogueException($"'dotnet {serviceDll} catalogue --json' exited {result.ExitCode}: {result.Error.Trim()}");
        return Parse(result.Output);
    }

    /// <summary>Fetches a running service's <c>GET /storages</c>; a service that does not answer is an error naming the URL.</summary>
    public static async Task<StorageCatalogue> FetchAsync(string baseUrl, CancellationToken cancel)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        try
        {
            return Parse(await http.GetStringAsync($"{baseUrl}/storages", cancel));
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
        {
            throw new CatalogueException($"GET {baseUrl}/storages failed ({e.Message}): is the service running there? (script/server starts it)");
        }
    }

    /// <summary>The architecture named or aliased <paramref name="name"/> (case-insensitive, as the service matches), or null.</summary>
    public StorageDescription? Find(string name) =>
        Entries.FirstOrDefault(e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase))
        ?? Entries.FirstOrDefault(e => e.Aliases.Contains(name, StringComparer.OrdinalIgnoreCase));

    /// <summary>
    /// The architecture a cache's reads are checked against: one serving the same kind on the same
    /// servers without a cache (postgres behind postgres-redis-cache); null for one without caches.
    /// </summary>
    public StorageDescription? TruthFor(StorageDescription entry, string serves) =>
        entry.Caches.Length == 0 ? null
        : Entries.FirstOrDefault(e => e.Caches.Length == 0 && e.Serves.Contains(serves) && e.Servers.SequenceEqual(entry.Servers));

    /// <summary>
    /// The architectures before <paramref name="architecture"/> whose writes to <paramref name="api"/> are
    /// its own: the same servers, caches and stated durability (tarantool-vinyl after tarantool-memtx: both
    /// engines acknowledge a write once the same write-ahead log has it). The bench runs one write cell for
    /// them; the crash test takes that cell's rate where a report has none of its own.
    /// </summary>
    public IEnumerable<string> SameWritesAs(string api, string architecture)
    {
        var self = Entries.FirstOrDefault(a => a.Name == architecture);
        if (self is null) return [];
        return Entries.TakeWhile(a => a.Name != architecture)
            .Where(a => a.Serve(api) && a.Servers.SequenceEqual(self.Servers) && a.Caches.SequenceEqual(self.Caches) && a.DurabilityClass() == self.DurabilityClass())
            .Select(a => a.Name);
    }

    /// <summary>The architecture the catalogue makes the key-value API's default.</summary>
    public StorageDescription? KvDefault => Entries.FirstOrDefault(e => e.IsKvDefault);
}
