using System.Globalization;
using System.Text.RegularExpressions;
using Harness.CommandLine;

namespace Tank.Autostop;

/// <summary>
/// Parses Tank autostop criteria: <c>quantile(95,100ms,10s)</c>, <c>time(1s,10)</c>,
/// <c>http(5xx,10%,5s)</c>, <c>net(1xx,10,10)</c>, <c>limit(15m)</c>, each with an optional tag.
/// Times default to ms, windows to seconds; whole numbers only.
/// </summary>
public static partial class AutostopParser
{
    /// <summary>The percentiles Tank's aggregator computes; a quantile criterion must use one.</summary>
    public static readonly IReadOnlyList<double> TankQuantiles = [50, 75, 80, 85, 90, 95, 98, 99, 100];

    [GeneratedRegex(@"^\s*([a-z_]+)\s*\((.*)\)\s*$")]
    private static partial Regex CriterionPattern();

    [GeneratedRegex(@"^([0-9]+)(ms|s|m|h)?$")]
    private static partial Regex TimePattern();

    [GeneratedRegex(@"^([0-9]+)(s|m|h)?$")]
    private static partial Regex WindowPattern();

    [GeneratedRegex(@"^[0-9x]{1,3}$")]
    private static partial Regex MaskPattern();

    [GeneratedRegex(@"^([0-9]+(\.[0-9]+)?)(%?)$")]
    private static partial Regex LevelPattern();

    public static IAutostopCriterion Parse(string text, string source = "autostop")
    {
        var match = CriterionPattern().Match(text);
        if (!match.Success) throw Error(source, text, "expected name(arguments), e.g. quantile(95,100ms,10s)");
        var args = match.Groups[2].Value.Split(',').Select(a => a.Trim()).ToArray();
        var name = match.Groups[1].Value;
        return name switch
        {
            "quantile" => Quantile(text, args, source),
            "time" => Args(text, args, 2, source) is var t
                ? new AverageTimeCriterion(text, TimeMs(t[0], text, source), Window(t[1], text, source), Tag(t, 2)) : null!,
            "http" or "net" => Codes(text, name == "net", args, source),
            "limit" => Args(text, args, 1, source) is var l
                ? new LimitCriterion(text, Window(l[0], text, source)) : null!,
            _ => throw Error(source, text, $"unknown criterion '{name}' (supported: quantile, time, http, net, limit)"),
        };
    }

    private static QuantileCriterion Quantile(string text, string[] args, string source)
    {
        Args(text, args, 3, source);
        if (!double.TryParse(args[0], NumberStyles.Float, CultureInfo.InvariantCulture, out var q) || !TankQuantiles.Contains(q))
            throw Error(source, text, $"quantile must be one of {string.Join(", ", TankQuantiles)}");
        return new QuantileCriterion(text, q, TimeMs(args[1], text, source), Window(args[2], text, source), Tag(args, 3));
    }

    private static CodeCriterion Codes(string text, bool net, string[] args, string source)
    {
        Args(text, args, 3, source);
        var mask = args[0].ToLowerInvariant();
        if (!MaskPattern().IsMatch(mask)) throw Error(source, text, $"'{args[0]}' is not a code mask like 5xx or 104");
        var level = LevelPattern().Match(args[1]);
        if (!level.Success) throw Error(source, text, $"'{args[1]}' is not a level like 10 or 10%");
        var relative = level.Groups[3].Value == "%";
        var value = double.Parse(level.Groups[1].Value, CultureInfo.InvariantCulture);
        return new CodeCriterion(text, net, mask, relative ? value / 100 : value, relative, Window(args[2], text, source), Tag(args, 3));
    }

    private static string[] Args(string text, string[] args, int required, string source) =>
        args.Length == required || args.Length == required + 1 && required > 1
            ? args
            : throw Error(source, text, $"takes {required} arguments{(required > 1 ? " (and an optional tag)" : "")}, got {args.Length}");

    private static string? Tag(string[] args, int index) => args.Length > index && args[index].Length > 0 ? args[index] : null;

    private static long TimeMs(string text, string criterion, string source)
    {
        var match = TimePattern().Match(text);
        if (!match.Success) throw Error(source, criterion, $"'{text}' is not a whole-number time (ms by default; ms, s, m, h)");
        var unit = match.Groups[2].Value switch { "s" => 1_000L, "m" => 60_000L, "h" => 3_600_000L, _ => 1L };
        return long.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture) * unit;
    }

    private static long Window(string text, string criterion, string source)
    {
        var match = WindowPattern().Match(text);
        if (!match.Success || match.Groups[1].Value.All(c => c == '0'))
            throw Error(source, criterion, $"'{text}' is not a whole-number window above zero (s by default; s, m, h)");
        var unit = match.Groups[2].Value switch { "m" => 60L, "h" => 3_600L, _ => 1L };
        return long.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture) * unit;
    }

    private static InputException Error(string source, string text, string message) =>
        new(source, $"autostop '{text}'", message);
}
