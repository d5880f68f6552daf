using System.Text.Json;
using System.Text.Json.Serialization;

namespace IntegrationService.Http;

/// <summary>
/// Reads any ISO 8601 date-time (with or without offset; none means UTC), truncated to whole
/// microseconds — the precision every store keeps — and writes it back as UTC with a 'Z'.
/// </summary>
public sealed class UtcDateTimeConverter : JsonConverter<DateTime>
{
    public override DateTime Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        // Utf8JsonReader accepts only ISO 8601: 'Z' gives Utc, an offset gives Local (already
        // converted), none gives Unspecified, which the API defines as UTC.
        if (!reader.TryGetDateTime(out var value))
        {
            throw new JsonException("The value is not an ISO 8601 date-time.");
        }
        return ToUtcMicroseconds(value);
    }

    /// <summary>
    /// The writer's own ISO 8601 form: fractional seconds with trailing zeros trimmed (none when
    /// zero) and 'Z' for UTC, formatted straight into the output without a string per value.
    /// </summary>
    public override void Write(Utf8JsonWriter writer, DateTime value, JsonSerializerOptions options) =>
        writer.WriteStringValue(ToUtcMicroseconds(value));

    /// <summary>UTC (Unspecified counts as UTC, as the API defines), truncated to whole microseconds.</summary>
    private static DateTime ToUtcMicroseconds(DateTime value)
    {
        var utc = value.Kind == DateTimeKind.Local ? value.ToUniversalTime() : value;
        return new DateTime(utc.Ticks - utc.Ticks % 10, DateTimeKind.Utc);
    }
}
