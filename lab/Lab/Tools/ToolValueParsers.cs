using System.Globalization;
using Harness.CommandLine;

namespace Lab.Tools;

/// <summary>The value syntaxes of <c>lab siege</c> and <c>lab ab</c> (comma-separated lists, as script/siege took them).</summary>
public static class ToolValueParsers
{
    /// <summary><c>a,b,c</c>: non-empty names.</summary>
    public static ValueParser<string[]> Names { get; } = (option, text) =>
        text.Split(',') is var names && names.All(n => n.Length > 0)
            ? names
            : throw new InputException($"{option}: '{text}' is not a comma-separated list of names");

    /// <summary><c>10,25,50</c>: positive whole numbers.</summary>
    public static ValueParser<int[]> PositiveWholeNumbers { get; } = (option, text) =>
        text.Split(',').Select(part =>
            int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value > 0
                ? value
                : throw new InputException($"{option} takes positive whole numbers, not '{part}'")).ToArray();
}
