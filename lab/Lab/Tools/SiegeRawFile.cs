using System.Globalization;
using System.Text;

namespace Lab.Tools;

/// <summary>
/// The raw file of one siege run (<c>raw/NNN-queue-op-cC.txt</c>): <c># key: value</c> lines this
/// tool writes around siege's own output, so that a run's table can be rebuilt from its files
/// alone (<c>lab siege --report</c>). The format is the one script/siege wrote before, so older
/// runs rebuild too.
/// </summary>
public static class SiegeRawFile
{
    public static string Header(string command, string queue, string op, int concurrency, long? depthBefore) =>
        new StringBuilder()
            .Append("# ").Append(command).Append('\n')
            .Append("# queue: ").Append(queue).Append('\n')
            .Append("# op: ").Append(op).Append('\n')
            .Append("# concurrency: ").Append(concurrency.ToString(CultureInfo.InvariantCulture)).Append('\n')
            .Append("# depth before: ").Append(Depth(depthBefore)).Append('\n')
            .ToString();

    public static string Footer(long? depthAfter, int exitCode) =>
        $"\n# depth after: {Depth(depthAfter)}\n# siege exit code: {exitCode.ToString(CultureInfo.InvariantCulture)}\n";

    public static SiegeRun Parse(string file, string text)
    {
        string? Value(string key)
        {
            var prefix = $"# {key}: ";
            var line = text.Split('\n').Select(l => l.TrimEnd('\r')).LastOrDefault(l => l.StartsWith(prefix, StringComparison.Ordinal));
            return line?[prefix.Length..].Trim() is { Length: > 0 } value ? value : null;
        }
        long? Whole(string key) => long.TryParse(Value(key), NumberStyles.Integer, CultureInfo.InvariantCulture, out var v) ? v : null;
        return new SiegeRun(file, Value("queue"), Value("op"), (int?)Whole("concurrency"), Whole("depth before"), Whole("depth after"),
            (int?)Whole("siege exit code"), SiegeOutputParser.Parse(text));
    }

    private static string Depth(long? depth) => depth?.ToString(CultureInfo.InvariantCulture) ?? "";
}
