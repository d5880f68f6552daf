using System.Text.Json;
using Lab.Compare;
using Harness.CommandLine;

namespace Lab.Verdicts;

/// <summary>
/// Reads the crash test's results: script/crashtest's <c>summary.json</c> (a JSON array of
/// <c>tank crash</c> results) in a folder, or one such file (an array, or a single result). A row's
/// fault is its <c>fault</c> field when it has one, else the last word of its label
/// (script/crashtest labels runs "&lt;storage&gt; &lt;kind&gt; &lt;fault&gt;"). <c>unavailable_s</c> may be null or
/// absent (writes never came back, or an older result); any other non-number is bad input, as for the counts.
/// </summary>
public static class CrashTableReader
{
    public static IReadOnlyList<CrashRow> Read(string folderOrFile)
    {
        var path = SummaryPath(folderOrFile);
        using var document = ReportFileReader.Parse(path);
        var root = document.RootElement;
        var rows = root.ValueKind switch
        {
            JsonValueKind.Array => root.EnumerateArray().Select((r, i) => Row(r, path, $"[{i}]")).ToList(),
            JsonValueKind.Object => [Row(root, path, "the top level")],
            _ => throw new InputException(path, "the top level", "is neither an array of crash results nor one"),
        };
        return rows;
    }

    /// <summary>
    /// The results file of <paramref name="folderOrFile"/>: a crash test's output folder's summary.json, or the file itself
    /// (a summary.json kept elsewhere, such as docs/crash/); bad input when there is none.
    /// </summary>
    public static string SummaryPath(string folderOrFile)
    {
        var path = Directory.Exists(folderOrFile) ? Path.Combine(folderOrFile, "summary.json") : folderOrFile;
        if (!File.Exists(path)) throw new InputException(path, "file", "no crash test results (script/crashtest writes summary.json into its output folder)");
        return path;
    }

    private static CrashRow Row(JsonElement row, string path, string where)
    {
        if (row.ValueKind != JsonValueKind.Object) throw new InputException(path, where, "is not an object");
        var storage = Text(row, "storage") ?? throw new InputException(path, $"{where}.storage", "is missing");
        var label = Text(row, "label") ?? "";
        var fault = Text(row, "fault") ?? (label.Split(' ', StringSplitOptions.RemoveEmptyEntries) is { Length: > 0 } words ? words[^1] : "");
        long Count(string name) => row.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Number ? v.GetInt64()
            : v.ValueKind is JsonValueKind.Undefined or JsonValueKind.Null ? 0 : throw new InputException(path, $"{where}.{name}", "is not a number");
        double? Seconds(string name) => row.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Number ? v.GetDouble()
            : v.ValueKind is JsonValueKind.Undefined or JsonValueKind.Null ? null : throw new InputException(path, $"{where}.{name}", "is not a number");
        if (!row.TryGetProperty("acked", out _)) throw new InputException(path, $"{where}.acked", "is missing");
        return new CrashRow(storage, Text(row, "kind") ?? "", fault, label.Length > 0 ? label : $"{storage} {fault}", Count("acked"), Count("lost"), Count("stale"),
            Count("changed"), Count("unverified"), Count("cache_disagreements"),
            row.TryGetProperty("read_back_ready_s", out var ready) && ready.ValueKind == JsonValueKind.Number, Seconds("unavailable_s"));
    }

    private static string? Text(JsonElement row, string name) =>
        row.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;
}
