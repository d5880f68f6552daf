using System.Globalization;
using System.Text.Json;
using IntegrationService.Authors;

namespace Crash;

/// <summary>
/// The author <c>crash run</c> sends and reads back, in the API's own shape (<see cref="Author"/>, camelCase
/// JSON); <see cref="Canonical"/> is what the verifier compares.
/// </summary>
public static class AuthorBody
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);
    private static readonly DateTime BirthDate = new(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    /// <summary>
    /// The body of write <paramref name="seq"/> of run <paramref name="runId"/>; its name is unique per write.
    /// With <paramref name="id"/>, an update of that author (a save carries no id).
    /// </summary>
    public static Author For(string runId, long seq, long? id = null)
    {
        var n = seq.ToString(CultureInfo.InvariantCulture);
        return new Author
        {
            Id = id ?? 0,
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

    public static byte[] ToJson(this Author author) => JsonSerializer.SerializeToUtf8Bytes(author, Json);

    /// <summary>The author in an API answer, or null when the body is not one.</summary>
    public static Author? FromJson(byte[] body)
    {
        try
        {
            return JsonSerializer.Deserialize<Author>(body, Json);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>Every field but the id (the key), the date as UTC to the microsecond the API keeps.</summary>
    public static string Canonical(this Author author) => JsonSerializer.Serialize(author with { Id = 0, BirthDateTime = Utc(author.BirthDateTime) }, Json);

    private static DateTime? Utc(DateTime? value)
    {
        if (value is not { } date) return null;
        var utc = date.Kind == DateTimeKind.Local ? date.ToUniversalTime() : date;
        return new DateTime(utc.Ticks - utc.Ticks % 10, DateTimeKind.Utc);
    }
}
