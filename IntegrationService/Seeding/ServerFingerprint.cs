using System.Globalization;

namespace IntegrationService.Seeding;

/// <summary>
/// One line of <c>IntegrationService fingerprint</c>: a server, where it is, and what it holds
/// (<c>key=value</c> pairs in a fixed order), or that it is not running, or why it could not be
/// read. script/test compares these lines before and after a test run, so they must not change
/// unless the data did (no timings, no uptime).
/// </summary>
public sealed record ServerFingerprint(string Server, string Endpoint, string Text)
{
    public const string NotRunning = "not running";

    public static ServerFingerprint Of(string server, string endpoint, IEnumerable<KeyValuePair<string, object?>> fields) =>
        new(server, endpoint, string.Join(' ', fields.Select(f => $"{f.Key}={Format(f.Value)}")));

    public static ServerFingerprint Down(string server, string endpoint) => new(server, endpoint, NotRunning);

    public static ServerFingerprint Failed(string server, string endpoint, string why) => new(server, endpoint, $"error: {why}");

    public override string ToString() => Endpoint.Length > 0 ? $"{Server} {Endpoint}: {Text}" : $"{Server}: {Text}";

    private static string Format(object? value) => value switch
    {
        null => "none",
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "none",
    };
}
