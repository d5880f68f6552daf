using System.CommandLine;
using System.CommandLine.Parsing;

namespace Harness.CommandLine;

/// <summary>
/// Builds the typed options of the tools' commands (tank, lab, crash). Every value goes through a
/// <see cref="ValueParser{T}"/> whose <see cref="InputException"/> becomes a parse error, so a
/// bad value is reported like an unknown option (exit code 2, nothing run) and names the option
/// and the value; System.CommandLine's own conversions would name the CLR type instead.
/// </summary>
public static class CliOption
{
    /// <summary>An option taking one value; given twice it is an error (System.CommandLine's rule for single-value options).</summary>
    public static Option<T> Create<T>(string name, string description, ValueParser<T> parse, string? helpName = null) =>
        new(name)
        {
            Description = description,
            HelpName = helpName,
            CustomParser = result => Convert(result, result.Tokens.Count == 1 ? result.Tokens[0].Value : "", parse, name),
        };

    /// <summary>A repeatable option (<c>--cpu a=1 --cpu b=2</c>): one value per occurrence, none by default.</summary>
    public static Option<T[]> Many<T>(string name, string description, ValueParser<T> parse, string? helpName = null) =>
        new(name)
        {
            Description = description,
            HelpName = helpName,
            Arity = ArgumentArity.ZeroOrMore,
            AllowMultipleArgumentsPerToken = false,
            DefaultValueFactory = _ => [],
            CustomParser = result => result.Tokens.Select(t => Convert(result, t.Value, parse, name)).ToArray(),
        };

    /// <summary>A switch: present or not, never with a value, so <c>--quiet load.yaml</c> leaves load.yaml to the command.</summary>
    public static Option<bool> Flag(string name, string description) =>
        new(name) { Description = description, Arity = ArgumentArity.Zero };

    /// <summary>The value when the option is absent (help shows it as <c>[default: …]</c>).</summary>
    public static Option<T> WithDefault<T>(this Option<T> option, T value)
    {
        option.DefaultValueFactory = _ => value;
        return option;
    }

    /// <summary>Makes leaving the option out an error that names it.</summary>
    public static Option<T> Require<T>(this Option<T> option)
    {
        option.Required = true;
        return option;
    }

    private static T Convert<T>(ArgumentResult result, string text, ValueParser<T> parse, string name)
    {
        try
        {
            return parse(name, text);
        }
        catch (InputException e)
        {
            result.AddError(e.Message);
            return default!;
        }
    }
}
