using System.Text.Json;

namespace Tank.Tools;

/// <summary>
/// The service's catalogue of architectures, read from <c>GET /storages</c> of the service under
/// test: the tools take their matrix from it instead of a typed list of names, so a new
/// architecture is measured without editing a script.
/// </summary>
public static class Catalogue
{
    /// <summary>Fetches the catalogue; a service that does not answer it is an error naming the URL.</summary>
    public static async Task<IReadOnlyList<CatalogueEntry>> FetchAsync(string baseUrl, CancellationToken cancellationToken)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        string json;
        try
        {
            json = await http.GetStringAsync($"{baseUrl}/storages", cancellationToken);
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
        {
            throw new ToolException($"GET {baseUrl}/storages failed ({e.Message}): is the service running there? (script/server starts it)");
        }
        return Parse(json);
    }

    /// <summary>Parses <c>GET /storages</c>'s JSON array (other fields are ignored).</summary>
    public static IReadOnlyList<CatalogueEntry> Parse(string json)
    {
        try
        {
            using var document = JsonDocument.Parse(json);
            return document.RootElement.EnumerateArray().Select(e => new CatalogueEntry(
                e.GetProperty("name").GetString() ?? throw new JsonException("an architecture without a name"),
                Strings(e, "aliases"),
                Strings(e, "serves"))).ToArray();
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or KeyNotFoundException)
        {
            throw new ToolException($"the catalogue (GET /storages) is not what the tools expect: {e.Message}");
        }
    }

    private static string[] Strings(JsonElement element, string property) =>
        element.TryGetProperty(property, out var values)
            ? values.EnumerateArray().Select(v => v.GetString() ?? "").ToArray()
            : [];
}
