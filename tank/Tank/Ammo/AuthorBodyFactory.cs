using System.Text.Encodings.Web;
using System.Text.Json;
using IntegrationService.Authors;
using IntegrationService.Seeding;

namespace Tank.Ammo;

/// <summary>
/// Varied, realistic <see cref="Author"/> bodies (camelCase, as the original tank ammo). Some names are
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

    // Non-ASCII written as it is, not as \u escapes: the bodies' byte and character counts must differ.
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>A new author's body; with <paramref name="id"/>, an update of that author.</summary>
    public static byte[] Create(SplitMix64 random, long? id = null)
    {
        var (country, nationality, cities) = Countries[random.Range(0, Countries.Length - 1)];
        var age = (int)random.Range(18, 99);
        var birth = new DateTime(2024 - age, 1, 1, 0, 0, 0, DateTimeKind.Utc)
            .AddMilliseconds(random.Range(0, 365L * 24 * 3600 * 1000 - 1));
        var author = new Author
        {
            Id = id ?? 0,
            Name = random.Pick(Names),
            FamilyName = random.Pick(FamilyNames),
            MiddleName = random.Pick(MiddleNames),
            Age = age,
            BirthCountry = country,
            BirthCity = random.Pick(cities),
            BooksCount = (int)random.Range(0, 255),
            Nationality = nationality,
            BirthDateTime = birth,
        };
        return JsonSerializer.SerializeToUtf8Bytes(author, Json);
    }
}
