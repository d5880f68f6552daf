using System.ComponentModel.DataAnnotations;
using System.Text.Json.Serialization;

namespace IntegrationService.Authors;

/// <summary>
/// An author, as the original .NET service's API carried it (camelCase JSON): the one shape the service
/// stores and answers, tank's ammo sends and the crash tester writes and reads back.
/// </summary>
public sealed record Author
{
    /// <summary>Assigned by the store on save (ignored there); required by update. 0 (none) is not written.</summary>
    /// <example>1</example>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingDefault)]
    public long Id { get; init; }

    /// <example>alexander</example>
    [Required, StringLength(AuthorLimits.MaxStringLength, MinimumLength = 1)]
    public string Name { get; init; } = "";

    /// <example>pushkin</example>
    [Required, StringLength(AuthorLimits.MaxStringLength, MinimumLength = 1)]
    public string FamilyName { get; init; } = "";

    /// <example>sergeevich</example>
    [StringLength(AuthorLimits.MaxStringLength)]
    public string? MiddleName { get; init; }

    /// <summary>0..255 (a byte in the original service).</summary>
    /// <example>20</example>
    [Range(0, 255)]
    public int Age { get; init; }

    /// <example>russia</example>
    [StringLength(AuthorLimits.MaxStringLength)]
    public string? BirthCountry { get; init; }

    /// <example>moscow</example>
    [StringLength(AuthorLimits.MaxStringLength)]
    public string? BirthCity { get; init; }

    /// <summary>0..255 (a byte in the original service).</summary>
    /// <example>10</example>
    [Range(0, 255)]
    public int BooksCount { get; init; }

    /// <example>russian</example>
    [StringLength(AuthorLimits.MaxStringLength)]
    public string? Nationality { get; init; }

    /// <summary>ISO 8601; stored and returned as UTC with microsecond precision.</summary>
    /// <example>2020-05-24T13:09:57.635Z</example>
    public DateTime? BirthDateTime { get; init; }
}
