using System.Globalization;
using System.Text;

namespace Lab.Metrics;

/// <summary>
/// Reads Prometheus's text exposition format (what <c>GET /metrics</c> answers): <c>name{label="value",…} value [timestamp]</c>
/// per line; comments (# HELP, # TYPE) and blank lines are skipped. Only the series whose names
/// <paramref name="wanted"/> accepts are kept.
/// </summary>
public static class PrometheusText
{
    public static List<PrometheusSample> Parse(string text, Func<string, bool> wanted)
    {
        var samples = new List<PrometheusSample>();
        var number = 0;
        foreach (var raw in text.Split('\n'))
        {
            number++;
            var line = raw.Trim();
            if (line.Length == 0 || line[0] == '#') continue;
            var nameEnd = line.IndexOfAny(['{', ' ', '\t']);
            if (nameEnd <= 0) throw new FormatException($"line {number}: no value after the series name");
            var name = line[..nameEnd];
            if (!wanted(name)) continue;
            var labels = new Dictionary<string, string>(StringComparer.Ordinal);
            var position = nameEnd;
            if (line[position] == '{') position = ReadLabels(line, position + 1, labels, number);
            var fields = line[position..].Split([' ', '\t'], StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length == 0) throw new FormatException($"line {number}: no value for {name}");
            samples.Add(new PrometheusSample(name, labels, ParseValue(fields[0], number)));
        }
        return samples;
    }

    /// <summary>Reads <c>k="v",…}</c> from <paramref name="start"/>; returns the position after the closing brace.</summary>
    private static int ReadLabels(string line, int start, Dictionary<string, string> labels, int number)
    {
        var i = start;
        while (true)
        {
            while (i < line.Length && (line[i] == ',' || line[i] == ' ')) i++;
            if (i >= line.Length) throw new FormatException($"line {number}: unterminated label set");
            if (line[i] == '}') return i + 1;
            var equals = line.IndexOf('=', i);
            if (equals < 0 || equals + 1 >= line.Length || line[equals + 1] != '"') throw new FormatException($"line {number}: a label without a quoted value");
            var key = line[i..equals].Trim();
            var value = new StringBuilder();
            i = equals + 2;
            for (; i < line.Length && line[i] != '"'; i++)
            {
                if (line[i] == '\\' && i + 1 < line.Length)
                {
                    i++;
                    value.Append(line[i] == 'n' ? '\n' : line[i]);
                }
                else value.Append(line[i]);
            }
            if (i >= line.Length) throw new FormatException($"line {number}: unterminated label value");
            labels[key] = value.ToString();
            i++;
        }
    }

    private static double ParseValue(string text, int number) => text switch
    {
        "+Inf" => double.PositiveInfinity,
        "-Inf" => double.NegativeInfinity,
        "NaN" => double.NaN,
        _ => double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value)
            ? value
            : throw new FormatException($"line {number}: '{text}' is not a number"),
    };
}
