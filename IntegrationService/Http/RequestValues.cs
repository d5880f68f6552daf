using System.Diagnostics.CodeAnalysis;
using System.Globalization;

namespace IntegrationService.Http;

/// <summary>
/// Parses query and route values by hand: a value that does not parse is a 400 naming the field
/// (framework binding would answer a bare 400 that names nothing).
/// </summary>
public static class RequestValues
{
    /// <summary>A required id: a positive 64-bit integer.</summary>
    public static bool TryParseId(string? raw, string field, out long id, [NotNullWhen(false)] out IResult? problem)
    {
        problem = null;
        if (long.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out id) && id > 0) return true;
        problem = ApiResults.Invalid(field, raw is null ? $"The {field} is required." : "The id must be a positive number.");
        return false;
    }

    /// <summary>An optional integer in [<paramref name="min"/>, <paramref name="max"/>]; absent means <paramref name="fallback"/>.</summary>
    public static bool TryParseInt(string? raw, string field, int min, int max, int fallback, out int value, [NotNullWhen(false)] out IResult? problem)
    {
        problem = null;
        if (raw is null)
        {
            value = fallback;
            return true;
        }
        if (int.TryParse(raw, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out value) && value >= min && value <= max) return true;
        problem = ApiResults.Invalid(field, $"The field {field} must be an integer between {min} and {max}.");
        return false;
    }
}
