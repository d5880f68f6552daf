using System.Globalization;
using System.Text.RegularExpressions;
using Harness.CommandLine;

namespace Tank.Schedule;

/// <summary>
/// Parses a Tank schedule such as <c>line(1, 100, 2m) const(100, 5m)</c>. Stricter than Tank's
/// regexes on purpose: what Tank would crash on or silently misread (commas between steps,
/// <c>500ms</c>, <c>0.5s</c>) is rejected here with the column it starts at.
/// </summary>
public static partial class ScheduleParser
{
    [GeneratedRegex(@"\G\s*([a-z]+)\s*\(([^()]*)\)", RegexOptions.CultureInvariant)]
    private static partial Regex StepPattern();

    [GeneratedRegex(@"^[0-9]+(\.[0-9]+)?$", RegexOptions.CultureInvariant)]
    private static partial Regex RatePattern();

    [GeneratedRegex(@"^([0-9]+)([dhms]?)$", RegexOptions.CultureInvariant)]
    private static partial Regex DurationPattern();

    /// <param name="source">Where the text came from (file and line), used in error messages.</param>
    public static LoadPlan Parse(string schedule, string source = "schedule")
    {
        var steps = new List<ILoadStep>();
        var pos = 0;
        while (true)
        {
            while (pos < schedule.Length && char.IsWhiteSpace(schedule[pos])) pos++;
            if (pos >= schedule.Length) break;
            if (schedule[pos] == ',')
                throw Error(source, pos, "steps are separated by spaces or newlines, not commas");
            var match = StepPattern().Match(schedule, pos);
            if (!match.Success) throw Error(source, pos, $"expected line(…), const(…) or step(…) but found '{Excerpt(schedule, pos)}'");
            var args = match.Groups[2].Value.Split(',').Select(a => a.Trim()).ToArray();
            steps.AddRange(Build(match.Groups[1].Value, args, source, pos));
            pos = match.Index + match.Length;
            if (pos < schedule.Length && !char.IsWhiteSpace(schedule[pos]))
                throw Error(source, pos, schedule[pos] == ','
                    ? "steps are separated by spaces or newlines, not commas"
                    : $"unexpected '{Excerpt(schedule, pos)}' after a step");
        }
        if (steps.Count == 0) throw Error(source, 0, "the schedule is empty");
        return new LoadPlan(steps);
    }

    private static IEnumerable<ILoadStep> Build(string name, string[] args, string source, int pos)
    {
        switch (name)
        {
            case "const":
                Arity(args, 2, name, source, pos);
                return [new ConstStep(Rate(args[0], source, pos), Duration(args[1], source, pos))];
            case "line":
                Arity(args, 3, name, source, pos);
                var lineMs = Duration(args[2], source, pos);
                if (lineMs == 0) throw Error(source, pos, "line() needs a duration above zero");
                return [new LineStep(Rate(args[0], source, pos), Rate(args[1], source, pos), lineMs)];
            case "step":
                Arity(args, 4, name, source, pos);
                var increment = Rate(args[2], source, pos);
                if (increment == 0) throw Error(source, pos, "step() needs an increment above zero");
                return Stairway(Rate(args[0], source, pos), Rate(args[1], source, pos), increment, Duration(args[3], source, pos));
            default:
                throw Error(source, pos, $"unknown step '{name}' (expected line, const or step)");
        }
    }

    // Tank's Stairway: const(a + i·inc) for i = 0..floor((b − a)/inc), then b if it was missed.
    private static IEnumerable<ILoadStep> Stairway(double from, double to, double increment, long durationMs)
    {
        if (to < from) increment = -increment;
        var steps = (long)((to - from) / increment);
        var result = new List<ILoadStep>();
        for (long i = 0; i <= steps; i++) result.Add(new ConstStep(from + i * increment, durationMs));
        var last = from + steps * increment;
        if ((increment > 0 && last < to) || (increment < 0 && last > to)) result.Add(new ConstStep(to, durationMs));
        return result;
    }

    private static void Arity(string[] args, int expected, string name, string source, int pos)
    {
        if (args.Length != expected) throw Error(source, pos, $"{name}() takes {expected} arguments, got {args.Length}");
    }

    private static double Rate(string text, string source, int pos)
    {
        if (!RatePattern().IsMatch(text)) throw Error(source, pos, $"'{text}' is not a non-negative number");
        return double.Parse(text, CultureInfo.InvariantCulture);
    }

    /// <summary>Whole numbers with d/h/m/s (bare = seconds), as Tank's parse_duration; returns ms.</summary>
    public static long Duration(string text, string source, int pos)
    {
        var match = DurationPattern().Match(text);
        if (!match.Success)
            throw Error(source, pos, $"'{text}' is not a duration: use a whole number with d, h, m or s (no ms, no fractions)");
        var value = long.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
        var unit = match.Groups[2].Value switch { "d" => 86_400_000L, "h" => 3_600_000L, "m" => 60_000L, _ => 1_000L };
        return checked(value * unit);
    }

    private static string Excerpt(string text, int pos) => text.Substring(pos, Math.Min(20, text.Length - pos));

    private static InputException Error(string source, int pos, string message) =>
        new(source, $"column {pos + 1}", message);
}
