using System.Globalization;
using System.Text;

namespace Tank.Ammo;

/// <summary>
/// Varied, realistic Author bodies (camelCase, as the original tank ammo). Some names are
/// non-ASCII on purpose, so byte sizes differ from character counts and size bugs show.
/// </summary>
public static class AuthorBodyFactory
{
    private static readonly string[] Names = ["alexander", "anna", "boris", "maria", "ivan", "olga", "dmitry", "elena", "leo", "sofia", "José", "Zoë", "Фёдор", "Марина", "mikhail", "tatiana", "nikolai", "vera", "pavel", "irina"];
    private static readonly string[] FamilyNames = ["pushkin", "tolstoy", "dostoevsky", "chekhov", "gogol", "turgenev", "bulgakov", "akhmatova", "tsvetaeva", "nabokov", "Müller", "García", "Пастернак", "Бродский", "lermontov", "gorky", "bunin", "pasternak"];
    private static readonly string[] MiddleNames = ["sergeevich", "nikolaevich", "mikhailovich", "ivanovna", "petrovna", "andreevich", "", "alexandrovna", "Львович"];
    private static readonly (string Country, string Nationality, string[] Cities)[] Countries =
    [
        ("russia", "russian", ["moscow", "saint petersburg", "kazan", "tula", "oryol", "Таганрог"]),
        ("france", "french", ["paris", "lyon", "marseille", "Besançon"]),
        ("germany", "german", ["berlin", "münchen", "hamburg"]),
        ("spain", "spanish", ["madrid", "sevilla", "málaga"]),
        ("united kingdom", "british", ["london", "edinburgh", "manchester"]),
        ("usa", "american", ["new york", "boston", "san francisco"]),
    ];

    /// <summary>A new author's body; with <paramref name="id"/>, an update of that author (the id leads the JSON).</summary>
    public static byte[] Create(SplitMix64 random, long? id = null)
    {
        var (country, nationality, cities) = Countries[random.Range(0, Countries.Length - 1)];
        var age = (int)random.Range(18, 99);
        var birth = new DateTime(2024 - age, 1, 1, 0, 0, 0, DateTimeKind.Utc)
            .AddMilliseconds(random.Range(0, 365L * 24 * 3600 * 1000 - 1));
        var json = new StringBuilder(256).Append('{');
        if (id is { } existing) json.Append("\"id\":").Append(existing.ToString(CultureInfo.InvariantCulture)).Append(',');
        json.Append("\"name\":").Append(Quote(random.Pick(Names)))
            .Append(",\"familyName\":").Append(Quote(random.Pick(FamilyNames)))
            .Append(",\"middleName\":").Append(Quote(random.Pick(MiddleNames)))
            .Append(",\"age\":").Append(age.ToString(CultureInfo.InvariantCulture))
            .Append(",\"birthCountry\":").Append(Quote(country))
            .Append(",\"birthCity\":").Append(Quote(random.Pick(cities)))
            .Append(",\"booksCount\":").Append(random.Range(0, 255).ToString(CultureInfo.InvariantCulture))
            .Append(",\"nationality\":").Append(Quote(nationality))
            .Append(",\"birthDateTime\":").Append(Quote(birth.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture)))
            .Append('}');
        return Encoding.UTF8.GetBytes(json.ToString());
    }

    // The word lists hold no quotes, backslashes or control characters, so quoting is enough.
    private static string Quote(string value) => "\"" + value + "\"";
}
