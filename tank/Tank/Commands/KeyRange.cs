using System.Globalization;
using Harness.CommandLine;

namespace Tank.Commands;

/// <summary>An inclusive range of positive ids, written <c>A-B</c> on the command line.</summary>
public readonly record struct KeyRange(long First, long Last)
{
    public long Count => Last - First + 1;

    /// <summary>Parses <c>A-B</c> with 1 ≤ A ≤ B; anything else is bad input naming <paramref name="option"/> (e.g. <c>--items</c>).</summary>
    public static KeyRange Parse(string text, string option)
    {
        var parts = text.Split('-');
        if (parts.Length == 2
            && long.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var first)
            && long.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var last)
            && first >= 1 && first <= last)
        {
            return new KeyRange(first, last);
        }
        throw new InputException($"{option}: '{text}' must be A-B with 1 <= A <= B");
    }

    public override string ToString() => $"{First}-{Last}";
}
