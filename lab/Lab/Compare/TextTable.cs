using System.Text;

namespace Lab.Compare;

/// <summary>A plain-text table with aligned columns, for the terminal.</summary>
public static class TextTable
{
    public static string Render(IReadOnlyList<string> header, IReadOnlyList<string[]> rows)
    {
        var widths = header.Select((h, i) => rows.Select(r => r[i].Length).Append(h.Length).Max()).ToArray();
        var text = new StringBuilder();
        void Line(IReadOnlyList<string> cells) => text.AppendLine(string.Join("  ", cells.Select((c, i) => c.PadRight(widths[i]))).TrimEnd());
        Line(header);
        Line(widths.Select(w => new string('-', w)).ToArray());
        foreach (var row in rows) Line(row);
        return text.ToString();
    }
}
