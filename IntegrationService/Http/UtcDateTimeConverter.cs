using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace IntegrationService.Http;

/// <summary>
/// Reads any ISO 8601 date-time (with or without offset; none means UTC), truncated to whole
/// microseconds — the precision every store keeps — and writes it back as UTC with a 'Z'.
/// </summary>
public sealed class UtcDateTimeConverter : JsonConverter<DateTime>
{
    private const string Format = "yyyy'-'MM'-'dd'T'HH':'mm':'ss.FFFFFF'Z'";

    public override DateTime Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        // Utf8JsonReader accepts only ISO 8601: 'Z' gives Utc, an offset gives Local (already
        // converted), none gives Unspecified, which the API defines as UTC.
        if (!reader.TryGetDateTime(out var value))
        {
            throw new JsonException("The value is not an ISO 8601 date-time.");
        }
        var utc = value.Kind switch
        {
            DateTimeKind.Local => value.ToUniversalTime(),
            _ => DateTime.SpecifyKind(value, DateTimeKind.Utc),
        };
        return new DateTime(utc.Ticks - utc.Ticks % 10, DateTimeKind.Utc);
    }

    public override void Write(Utf8JsonWriter writer, DateTime value, JsonSerializerOptions options) =>
        writer.WriteStringValue(value.ToUniversalTime().ToString(Format, CultureInfo.InvariantCulture));
}
