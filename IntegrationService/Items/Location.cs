using System.Text.Json.Serialization;

namespace IntegrationService.Items;

/// <summary>A location, in the original Go service's JSON casing.</summary>
public sealed record Location(
    [property: JsonPropertyName("ID")] long Id,
    [property: JsonPropertyName("Location")] string Text,
    [property: JsonPropertyName("Coordinates")] Coordinates Coordinates);
