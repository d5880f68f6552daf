namespace IntegrationService.Authors;

/// <summary>
/// Checks an author's fields against <see cref="AuthorLimits"/>; errors are keyed by the JSON field
/// name. Written out by hand because it runs on every save and update.
/// </summary>
public static class AuthorValidator
{
    /// <summary>The errors, or null when the author is valid.</summary>
    public static Dictionary<string, string[]>? Validate(Author author)
    {
        Dictionary<string, string[]>? errors = null;
        Required(ref errors, "name", author.Name);
        Required(ref errors, "familyName", author.FamilyName);
        Length(ref errors, "middleName", author.MiddleName);
        Byte(ref errors, "age", author.Age);
        Length(ref errors, "birthCountry", author.BirthCountry);
        Length(ref errors, "birthCity", author.BirthCity);
        Byte(ref errors, "booksCount", author.BooksCount);
        Length(ref errors, "nationality", author.Nationality);
        return errors;
    }

    private static void Required(ref Dictionary<string, string[]>? errors, string field, string? value)
    {
        if (string.IsNullOrEmpty(value)) Add(ref errors, field, $"The {field} field is required.");
        else Length(ref errors, field, value);
    }

    private static void Length(ref Dictionary<string, string[]>? errors, string field, string? value)
    {
        if (value is { Length: > AuthorLimits.MaxStringLength })
        {
            Add(ref errors, field, $"The field {field} must be at most {AuthorLimits.MaxStringLength} characters long.");
        }
        else if (value is not null && !IsStorableText(value))
        {
            Add(ref errors, field, $"The field {field} must be Unicode text without U+0000 and without unpaired surrogates (\\ud800 alone).");
        }
    }

    /// <summary>
    /// PostgreSQL's text cannot hold U+0000 and no store can encode a lone UTF-16 surrogate as
    /// UTF-8; JSON escapes (<c>\u0000</c>, <c>\ud800</c>) can carry both. Refused on every
    /// architecture alike, rather than stored by some and failing in others.
    /// </summary>
    private static bool IsStorableText(string value) =>
        !value.Contains('\0') && (value.AsSpan().IndexOfAnyInRange('\uD800', '\uDFFF') < 0 || !HasLoneSurrogate(value));

    private static bool HasLoneSurrogate(string value)
    {
        for (var i = 0; i < value.Length; i++)
        {
            if (char.IsHighSurrogate(value[i]) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1])) { i++; continue; }
            if (char.IsSurrogate(value[i])) return true;
        }
        return false;
    }

    private static void Byte(ref Dictionary<string, string[]>? errors, string field, int value)
    {
        if (value is < 0 or > 255) Add(ref errors, field, $"The field {field} must be between 0 and 255.");
    }

    private static void Add(ref Dictionary<string, string[]>? errors, string field, string message) =>
        (errors ??= [])[field] = [message];
}
