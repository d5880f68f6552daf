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
    }

    private static void Byte(ref Dictionary<string, string[]>? errors, string field, int value)
    {
        if (value is < 0 or > 255) Add(ref errors, field, $"The field {field} must be between 0 and 255.");
    }

    private static void Add(ref Dictionary<string, string[]>? errors, string field, string message) =>
        (errors ??= [])[field] = [message];
}
