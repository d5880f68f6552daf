using System.Text.Json;

namespace Tank.Bench;

/// <summary>
/// The architectures the service serves, read from the service itself: the bench names none of
/// its own, so a new architecture in the catalogue is benchmarked without touching the bench.
/// </summary>
public static class Catalogue
{
    /// <summary>Runs <c>dotnet SERVICE.dll catalogue --json</c> (nothing is contacted) and parses its answer.</summary>
    public static IReadOnlyList<CatalogueEntry> Load(string serviceDll, CancellationToken cancel)
    {
        var result = ProcessRunner.Run("dotnet", [serviceDll, "catalogue", "--json"], cancel);
        if (result.ExitCode != 0)
            throw new InvalidOperationException($"'dotnet {serviceDll} catalogue --json' exited {result.ExitCode}: {result.Error.Trim()}");
        return Parse(result.Output);
    }

    /// <summary>Parses the catalogue's JSON array (GET /storages answers the same).</summary>
    public static IReadOnlyList<CatalogueEntry> Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        if (document.RootElement.ValueKind != JsonValueKind.Array) throw new FormatException("the catalogue is not a JSON array");
        return document.RootElement.EnumerateArray().Select(Entry).ToList();
    }

    private static CatalogueEntry Entry(JsonElement e) => new(
        e.GetProperty("name").GetString() ?? throw new FormatException("an architecture without a name"),
        Strings(e, "aliases"),
        Strings(e, "serves"),
        Strings(e, "servers"),
        Strings(e, "caches"),
        e.TryGetProperty("durability", out var d) && d.ValueKind == JsonValueKind.Object && d.TryGetProperty("text", out var text) ? text.GetString() ?? "" : "",
        e.TryGetProperty("shardable", out var s) && s.ValueKind == JsonValueKind.True)
    {
        DurabilityClass = d.ValueKind == JsonValueKind.Object
            ? string.Join("/", new[] { "processCrash", "powerLoss", "lossWindowMs" }.Select(k => d.TryGetProperty(k, out var v) ? v.ToString() : ""))
            : "",
    };

    private static string[] Strings(JsonElement e, string property) =>
        e.TryGetProperty(property, out var array) && array.ValueKind == JsonValueKind.Array
            ? array.EnumerateArray().Select(v => v.GetString() ?? "").Where(v => v.Length > 0).ToArray()
            : [];
}
