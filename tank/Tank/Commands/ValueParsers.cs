using System.Globalization;
using Tank.Config;
using Tank.Runner;
using Tank.Schedule;
using Harness.CommandLine;

namespace Tank.Commands;

/// <summary>
/// The value syntaxes of the tank command line, each a <see cref="ValueParser{T}"/>. They reuse
/// the checks load.yaml gets (schedules, timeouts, addresses), so a value means the same on the
/// command line as in a config, and bad input fails while parsing, before anything is written.
/// </summary>
public static class ValueParsers
{
    /// <summary>A whole number in [<paramref name="min"/>, <paramref name="max"/>], invariant culture.</summary>
    public static ValueParser<long> WholeNumber(long min = long.MinValue, long max = long.MaxValue) => (option, text) =>
    {
        if (!long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
            throw Bad(option, text, "is not a whole number");
        if (value < min) throw Bad(option, text, min == 1 ? "must be above zero" : $"must be at least {min}");
        if (value > max) throw Bad(option, text, $"must be at most {max}");
        return value;
    };

    /// <summary>A finite number above zero (rates, seconds, the SLO).</summary>
    public static ValueParser<double> PositiveNumber { get; } = (option, text) =>
        Number(option, text) is var value and > 0 ? value : throw Bad(option, text, "must be above zero");

    /// <summary>A finite number of at least zero (a time offset).</summary>
    public static ValueParser<double> NonNegativeNumber { get; } = (option, text) =>
        Number(option, text) is var value and >= 0 ? value : throw Bad(option, text, "must be at least 0");

    /// <summary>Tank's timeout syntax as in load.yaml (<c>500ms</c>, <c>3s</c>, <c>1m</c>), in milliseconds.</summary>
    public static ValueParser<long> Duration { get; } = (option, text) =>
        Prefixed(option, () => LoadConfigReader.Timeout(text));

    /// <summary>A Tank schedule (<c>line(1, 100, 10s) const(100, 5m)</c>), checked now and kept as text for meta.json.</summary>
    public static ValueParser<string> Schedule { get; } = (option, text) =>
    {
        ScheduleParser.Parse(text, $"{option} '{text}'");
        return text;
    };

    /// <summary><c>host:port</c>, <c>[ipv6]:port</c> or <c>host</c>, as load.yaml's phantom.address (checked, not resolved).</summary>
    public static ValueParser<string> Address { get; } = (option, text) =>
    {
        Prefixed(option, () => LoadRunner.SplitAddress(text));
        return text;
    };

    /// <summary>An inclusive id range <c>A-B</c> with 1 ≤ A ≤ B.</summary>
    public static ValueParser<KeyRange> KeyRange { get; } = (option, text) => Commands.KeyRange.Parse(text, option);

    /// <summary>An absolute http(s) URL, without its trailing slash (paths are appended to it).</summary>
    public static ValueParser<string> HttpUrl { get; } = (option, text) =>
        Uri.TryCreate(text, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
            ? text.TrimEnd('/')
            : throw Bad(option, text, "is not an absolute http:// or https:// URL");

    /// <summary>Any text but the empty one (a name or path the command cannot do without).</summary>
    public static ValueParser<string> NonEmpty { get; } = (option, text) =>
        text.Length > 0 ? text : throw Bad(option, text, "is empty");

    /// <summary>A comma-separated list of non-empty names (a,b); whether they exist, the caller says.</summary>
    public static ValueParser<string[]> Names { get; } = (option, text) =>
        text.Split(',', StringSplitOptions.TrimEntries) is var names && names.All(n => n.Length > 0)
            ? names
            : throw new InputException($"{option}: '{text}' is not a comma-separated list of names");

    /// <summary>One of the given names, exactly.</summary>
    public static ValueParser<string?> OneOf(IReadOnlyList<string> names) => (option, text) =>
        names.Contains(text) ? text : throw Bad(option, text, $"is not one of {string.Join(", ", names)}");

    /// <summary>Any text, verbatim (labels recorded as given).</summary>
    public static ValueParser<string> Text { get; } = (_, text) => text;

    /// <summary><c>name=text</c> with a non-empty name (env's --server and --durability).</summary>
    public static ValueParser<KeyValuePair<string, string>> NamedText { get; } = (option, text) =>
        text.Split('=', 2) is [{ Length: > 0 } name, var value]
            ? KeyValuePair.Create(name, value)
            : throw new InputException($"{option} takes name=text, got '{text}'");

    /// <summary>One of <paramref name="names"/>, mapped to its value by <paramref name="map"/>.</summary>
    public static ValueParser<T> Choice<T>(IReadOnlyList<string> names, Func<string, T> map) => (option, text) =>
        names.Contains(text) ? map(text) : throw Bad(option, text, $"is not one of {string.Join(", ", names)}");

    /// <summary>The same parser for an option whose absence means "keep what load.yaml says".</summary>
    public static ValueParser<T?> Optional<T>(this ValueParser<T> parser) where T : struct =>
        (option, text) => parser(option, text);

    private static double Number(string option, string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value)
            ? value
            : throw Bad(option, text, "is not a number");

    private static T Prefixed<T>(string option, Func<T> parse)
    {
        try { return parse(); }
        catch (InputException e) { throw new InputException($"{option}: {e.Message}"); }
    }

    private static InputException Bad(string option, string text, string why) => new($"{option}: '{text}' {why}");
}
