using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using System.Numerics;

namespace IntegrationService.Seeding;

/// <summary>
/// Typed options for the service's command-line tools. A bad value becomes a parse error that
/// names the option and the value (<c>--depth: 'x' is not a whole number</c>), so it is reported
/// like an unknown option (exit code 2) before any backend is contacted; System.CommandLine's own
/// conversion would name the CLR type instead.
/// </summary>
internal static class CommandLineOptions
{
    /// <summary>
    /// A whole number of type <typeparamref name="T"/> in [<paramref name="min"/>, <paramref name="max"/>]:
    /// <paramref name="defaultValue"/> when absent (help shows it), or an error naming it when <paramref name="required"/>.
    /// </summary>
    public static Option<T> WholeNumber<T>(string name, string description, T min, T max, T? defaultValue = null, bool required = false)
        where T : struct, IBinaryInteger<T>, IMinMaxValue<T> =>
        new(name)
        {
            Description = description,
            HelpName = "n",
            Required = required,
            DefaultValueFactory = defaultValue is { } value ? _ => value : null,
            CustomParser = result =>
            {
                var text = result.Tokens.Count == 1 ? result.Tokens[0].Value : "";
                // Parsed wide first, so 99999999999 for an int is out of range rather than "not a number".
                if (!BigInteger.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
                    return Error<T>(result, $"{name}: '{text}' is not a whole number");
                if (value < BigInteger.CreateChecked(min)) return Error<T>(result, $"{name}: '{text}' must be at least {min}");
                if (value > BigInteger.CreateChecked(max)) return Error<T>(result, $"{name}: '{text}' must be at most {max}");
                return T.CreateChecked(value);
            },
        };

    /// <summary>A non-empty text (a name the command cannot do without: leaving it out is an error that names it).</summary>
    public static Option<string> Name(string name, string description, string helpName) =>
        new(name)
        {
            Description = description,
            HelpName = helpName,
            Required = true,
            CustomParser = result => result.Tokens is [{ Value: { Length: > 0 } text }] ? text : Error<string>(result, $"{name}: '' is empty"),
        };

    private static T Error<T>(ArgumentResult result, string message)
    {
        result.AddError(message);
        return default!;
    }
}
