using IntegrationService.Authors;
using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// An <see cref="Author"/> as a tuple of the authors_memtx / authors_vinyl spaces, written and read
/// field by field; the element order is the space format in infra/config/tarantool/init.lua (there 1-based):
/// {id, name, family_name, middle_name, age, birth_country, birth_city, books_count, nationality,
/// birth_date_time (microseconds since the Unix epoch, UTC)}.
/// </summary>
internal static class AuthorTuple
{
    public const int FieldCount = 10;

    /// <summary>The whole tuple; a null <paramref name="id"/> is written as nil so the space's sequence assigns it.</summary>
    public static void Write(ref MessagePackWriter writer, Author author, long? id)
    {
        writer.WriteArrayHeader(FieldCount);
        if (id is { } value) writer.Write(value);
        else writer.WriteNil();
        for (var field = 1; field < FieldCount; field++) WriteField(ref writer, author, field);
    }

    /// <summary>One field other than the id (0-based, as IPROTO update operations number them).</summary>
    public static void WriteField(ref MessagePackWriter writer, Author author, int field)
    {
        switch (field)
        {
            case 1: writer.Write(author.Name); break;
            case 2: writer.Write(author.FamilyName); break;
            case 3: writer.Write(author.MiddleName); break;
            case 4: writer.Write(author.Age); break;
            case 5: writer.Write(author.BirthCountry); break;
            case 6: writer.Write(author.BirthCity); break;
            case 7: writer.Write(author.BooksCount); break;
            case 8: writer.Write(author.Nationality); break;
            case 9:
                if (author.BirthDateTime is { } date) writer.Write(ToMicros(date));
                else writer.WriteNil();
                break;
            default: throw new ArgumentOutOfRangeException(nameof(field), field, "An author tuple has fields 1..9 besides its id.");
        }
    }

    /// <summary>
    /// Reads one tuple. Tarantool may omit trailing nullable fields, so missing ones keep their
    /// defaults; fields beyond the format are skipped.
    /// </summary>
    public static Author Read(ref MessagePackReader reader)
    {
        var count = reader.ReadArrayHeader();
        long id = 0;
        string name = "", familyName = "";
        string? middleName = null, birthCountry = null, birthCity = null, nationality = null;
        int age = 0, booksCount = 0;
        DateTime? birthDateTime = null;
        for (var field = 0; field < count; field++)
        {
            switch (field)
            {
                case 0: id = reader.TryReadNil() ? 0 : reader.ReadInt64(); break;
                case 1: name = reader.ReadString() ?? ""; break;
                case 2: familyName = reader.ReadString() ?? ""; break;
                case 3: middleName = reader.ReadString(); break;
                case 4: age = reader.TryReadNil() ? 0 : reader.ReadInt32(); break;
                case 5: birthCountry = reader.ReadString(); break;
                case 6: birthCity = reader.ReadString(); break;
                case 7: booksCount = reader.TryReadNil() ? 0 : reader.ReadInt32(); break;
                case 8: nationality = reader.ReadString(); break;
                case 9: birthDateTime = reader.TryReadNil() ? null : FromMicros(reader.ReadInt64()); break;
                default: reader.Skip(); break;
            }
        }
        return new Author
        {
            Id = id,
            Name = name,
            FamilyName = familyName,
            MiddleName = middleName,
            Age = age,
            BirthCountry = birthCountry,
            BirthCity = birthCity,
            BooksCount = booksCount,
            Nationality = nationality,
            BirthDateTime = birthDateTime,
        };
    }

    private const long TicksPerMicrosecond = TimeSpan.TicksPerMillisecond / 1000;

    private static DateTime FromMicros(long micros) => DateTime.UnixEpoch.AddTicks(micros * TicksPerMicrosecond);

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
