using System.ComponentModel.DataAnnotations;
using System.Text.Json.Serialization;

namespace IntegrationService.Items;

/// <summary>The body of <c>POST /item/{id}/locations</c>: the item's new, complete set.</summary>
public sealed record ReplaceLocationsRequest
{
    /// <summary>Location ids, each positive; duplicates are ignored; <c>[]</c> clears the set.</summary>
    /// <example>[154, 2546, 556, 54558]</example>
    [Required, MaxLength(ItemLimits.MaxLocationsPerItem)]
    [JsonPropertyName("LocationIds")]
    public long[]? LocationIds { get; init; }
}
