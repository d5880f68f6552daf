using System.Text.Json.Serialization;

namespace IntegrationService.Items;

/// <summary>The Go service's acknowledgement, <c>{"ok": 1}</c>.</summary>
public sealed record OkResponse([property: JsonPropertyName("ok")] int Ok);
