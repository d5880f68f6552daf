using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text.Json;

namespace IntegrationService.Queues;

/// <summary>
/// The message a write without a body enqueues, shaped like the original study's:
/// <c>{"payload":{"uuid":…,"username":…,"email":…,"first_name":…,"last_name":…},"title":"14 hex digits","timestamp":unix seconds}</c>.
/// The original built a new Faker generator per request, which was much of why its front end was
/// the bottleneck; this draws from fixed name lists and <see cref="Random.Shared"/>, a few hundred
/// nanoseconds and one array per message (the JSON writer and its buffer are reused per thread).
/// </summary>
public static class GeneratedMessage
{
    private static readonly string[] FirstNames =
    [
        "Alexander", "Anna", "Boris", "Daria", "Elena", "Fyodor", "Galina", "Igor", "Irina", "Konstantin",
        "Ludmila", "Mikhail", "Natalia", "Oleg", "Olga", "Pavel", "Svetlana", "Tatiana", "Vladimir", "Yulia",
    ];

    private static readonly string[] LastNames =
    [
        "Pushkin", "Tolstoy", "Chekhov", "Gogol", "Turgenev", "Bulgakov", "Akhmatova", "Tsvetaeva", "Nabokov", "Pasternak",
        "Lermontov", "Bunin", "Gorky", "Blok", "Yesenin", "Mayakovsky", "Sholokhov", "Platonov", "Brodsky", "Dostoevsky",
    ];

    private static readonly string[] Domains = ["example.com", "example.net", "example.org", "mail.test", "post.test"];

    [ThreadStatic]
    private static ArrayBufferWriter<byte>? t_buffer;

    [ThreadStatic]
    private static Utf8JsonWriter? t_json;

    /// <summary>A new message as UTF-8 JSON.</summary>
    public static byte[] Create()
    {
        var random = Random.Shared;
        var first = FirstNames[random.Next(FirstNames.Length)];
        var last = LastNames[random.Next(LastNames.Length)];
        var number = random.Next(1, 10_000);
        var buffer = t_buffer ??= new ArrayBufferWriter<byte>(512);
        buffer.ResetWrittenCount();
        var json = t_json ??= new Utf8JsonWriter(buffer);
        json.Reset(buffer);
        json.WriteStartObject();
        json.WriteStartObject("payload");
        json.WriteString("uuid", Guid.NewGuid());
        Span<char> name = stackalloc char[64];
        json.WriteString("username", Lower(name, $"{first}.{last}{number}"));
        Span<char> email = stackalloc char[96];
        json.WriteString("email", Lower(email, $"{first}.{last}{number}@{Domains[random.Next(Domains.Length)]}"));
        json.WriteString("first_name", first);
        json.WriteString("last_name", last);
        json.WriteEndObject();
        Span<char> title = stackalloc char[14];
        for (var i = 0; i < title.Length; i++) title[i] = "0123456789abcdef"[random.Next(16)];
        json.WriteString("title", title);
        json.WriteNumber("timestamp", DateTimeOffset.UtcNow.ToUnixTimeSeconds());
        json.WriteEndObject();
        json.Flush();
        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>Formats <paramref name="text"/> into <paramref name="destination"/> without a string, in lower case.</summary>
    private static ReadOnlySpan<char> Lower(Span<char> destination, [InterpolatedStringHandlerArgument(nameof(destination))] ref MemoryExtensions.TryWriteInterpolatedStringHandler text)
    {
        if (!destination.TryWrite(ref text, out var length)) throw new InvalidOperationException("a generated name outgrew its buffer");
        var written = destination[..length];
        for (var i = 0; i < written.Length; i++) written[i] = char.ToLowerInvariant(written[i]);
        return written;
    }
}
