using System.Text.Json.Serialization;

namespace IntegrationService.Items;

/// <summary>X is the longitude in [-180, 180], Y the latitude in [-90, 90] (upper-case, as the Go service wrote them).</summary>
public sealed record Coordinates(
    [property: JsonPropertyName("X")] double X,
    [property: JsonPropertyName("Y")] double Y);
