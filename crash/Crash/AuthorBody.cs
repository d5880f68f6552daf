using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Crash;

/// <summary>
/// The author <c>crash run</c> sends (the API's camelCase JSON, every field of IntegrationService's
/// Author) and reads back; <see cref="Canonical"/> is what the verifier compares.
/// </summary>
public sealed record AuthorBody
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);
    private static readonly DateTime BirthDate = new(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    /// <summary>Sent only by an update; any id in a save is ignored by the API.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public long? Id { get; init; }
    public string Name { get; init; } = "";
    public string FamilyName { get; init; } = "";
    public string? MiddleName { get; init; }
    public int Age { get; init; }
    public string? BirthCountry { get; init; }
    public string? BirthCity { get; init; }
    public int BooksCount { get; init; }
    public string? Nationality { get; init; }
    public DateTime? BirthDateTime { get; init; }

    /// <summary>The body of write <paramref name="seq"/> of run <paramref name="runId"/>; its name is unique per write.</summary>
    public static AuthorBody For(string runId, long seq, long? id = null)
    {
        var n = seq.ToString(CultureInfo.InvariantCulture);
        return new AuthorBody
        {
            Id = id,
            Name = $"crash-{runId}-{n}",
            FamilyName = $"f{n}",
            MiddleName = null,
            Age = (int)(seq % 100),
            BirthCountry = "c",
            BirthCity = "x",
            BooksCount = (int)(seq % 200),
            Nationality = "n",
            BirthDateTime = BirthDate,
        };
    }

    public byte[] ToJson() => JsonSerializer.SerializeToUtf8Bytes(this, Json);

    /// <summary>The author in an API answer, or null when the body is not one.</summary>
    public static AuthorBody? FromJson(byte[] body)
    {
        try
        {
            return JsonSerializer.Deserialize<AuthorBody>(body, Json);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>Every field but the id (the key), the date as UTC to the microsecond the API keeps.</summary>
    public string Canonical() => JsonSerializer.Serialize(this with { Id = null, BirthDateTime = Utc(BirthDateTime) }, Json);

    private static DateTime? Utc(DateTime? value)
    {
        if (value is not { } date) return null;
        var utc = date.Kind == DateTimeKind.Local ? date.ToUniversalTime() : date;
        return new DateTime(utc.Ticks - utc.Ticks % 10, DateTimeKind.Utc);
    }
}
