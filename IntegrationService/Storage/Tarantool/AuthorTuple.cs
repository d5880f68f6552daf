using IntegrationService.Authors;
using IntegrationService.Storage.Tarantool.Iproto;

namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// An <see cref="Author"/> as a tuple of the authors_memtx / authors_vinyl spaces; the element
/// order is the space format in infra/config/tarantool/init.lua (there 1-based).
/// </summary>
[MsgPackArray]
public sealed class AuthorTuple
{
    /// <summary>Nil on insert, so the space's sequence assigns the id.</summary>
    [MsgPackArrayElement(0)] public long? Id { get; set; }
    [MsgPackArrayElement(1)] public string Name { get; set; } = "";
    [MsgPackArrayElement(2)] public string FamilyName { get; set; } = "";
    [MsgPackArrayElement(3)] public string? MiddleName { get; set; }
    [MsgPackArrayElement(4)] public int Age { get; set; }
    [MsgPackArrayElement(5)] public string? BirthCountry { get; set; }
    [MsgPackArrayElement(6)] public string? BirthCity { get; set; }
    [MsgPackArrayElement(7)] public int BooksCount { get; set; }
    [MsgPackArrayElement(8)] public string? Nationality { get; set; }
    /// <summary>Microseconds since the Unix epoch, UTC.</summary>
    [MsgPackArrayElement(9)] public long? BirthDateTimeMicros { get; set; }

    public static AuthorTuple FromAuthor(Author author, long? id) => new()
    {
        Id = id,
        Name = author.Name,
        FamilyName = author.FamilyName,
        MiddleName = author.MiddleName,
        Age = author.Age,
        BirthCountry = author.BirthCountry,
        BirthCity = author.BirthCity,
        BooksCount = author.BooksCount,
        Nationality = author.Nationality,
        BirthDateTimeMicros = author.BirthDateTime is { } date ? ToMicros(date) : null,
    };

    public Author ToAuthor() => new()
    {
        Id = Id ?? 0,
        Name = Name,
        FamilyName = FamilyName,
        MiddleName = MiddleName,
        Age = Age,
        BirthCountry = BirthCountry,
        BirthCity = BirthCity,
        BooksCount = BooksCount,
        Nationality = Nationality,
        BirthDateTime = BirthDateTimeMicros is { } micros ? DateTime.UnixEpoch.AddTicks(micros * TicksPerMicrosecond) : null,
    };

    private const long TicksPerMicrosecond = TimeSpan.TicksPerMillisecond / 1000;

    // Unspecified is taken as UTC: the API stores UTC and must not shift by the host's zone.
    private static long ToMicros(DateTime date)
    {
        var utc = date.Kind == DateTimeKind.Local ? date.ToUniversalTime() : date;
        return Math.DivRem(utc.Ticks - DateTime.UnixEpoch.Ticks, TicksPerMicrosecond) switch
        {
            var (quotient, remainder) when remainder < 0 => quotient - 1, // floor, also before 1970
            var (quotient, _) => quotient,
        };
    }
}
