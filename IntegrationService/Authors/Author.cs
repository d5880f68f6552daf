namespace IntegrationService.Authors;

/// <summary>An author, as the original .NET service's API carried it (camelCase JSON).</summary>
public sealed record Author
{
    /// <summary>Assigned by the store on save; ignored on input to <c>/Author/Save</c>.</summary>
    public long Id { get; init; }
    public string Name { get; init; } = "";
    public string FamilyName { get; init; } = "";
    public string? MiddleName { get; init; }
    /// <summary>0..255 (a byte in the original service).</summary>
    public int Age { get; init; }
    public string? BirthCountry { get; init; }
    public string? BirthCity { get; init; }
    /// <summary>0..255 (a byte in the original service).</summary>
    public int BooksCount { get; init; }
    public string? Nationality { get; init; }
    /// <summary>Stored and returned as UTC with microsecond precision.</summary>
    public DateTime? BirthDateTime { get; init; }
}
