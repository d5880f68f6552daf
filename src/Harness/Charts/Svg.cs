using System.Globalization;
using System.Net;
using System.Text;

namespace Harness.Charts;

/// <summary>Small helpers for hand-written SVG (no plotting library is available on the NuGet mirror).</summary>
public static class Svg
{
    public static readonly string[] Palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"];

    public static string N(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);

    public static string Esc(string text) => WebUtility.HtmlEncode(text);

    /// <summary>
    /// A "nice" axis maximum at or above <paramref name="value"/>: 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10^k, each
    /// of which splits into five round ticks; the steps are close enough that at most a third of an axis
    /// is empty (with 1, 2, 2.5, 5 alone, 27 500 became 50 000).
    /// </summary>
    public static double NiceMax(double value)
    {
        if (value <= 0) return 1;
        var exp = Math.Pow(10, Math.Floor(Math.Log10(value)));
        foreach (var step in new[] { 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 })
            if (step * exp >= value) return step * exp;
        return 10 * exp;
    }

    /// <summary>
    /// Colour swatches with their names (about 7 px a character at 12 px), wrapped into rows 20 px
    /// apart so that none runs past <paramref name="right"/>; returns the rows used. With a null
    /// <paramref name="svg"/> it only counts them, so a chart can make room first.
    /// </summary>
    public static int Legend(StringBuilder? svg, IReadOnlyList<(string Name, string Color)> entries, double left, double right, double baseline)
    {
        var x = left;
        var rows = entries.Count == 0 ? 0 : 1;
        foreach (var (name, color) in entries)
        {
            var width = 20 + name.Length * 7;
            if (x > left && x + width > right) { x = left; rows++; }
            var y = baseline + (rows - 1) * LegendRowHeight;
            svg?.Append($"<rect x=\"{N(x)}\" y=\"{N(y - 11)}\" width=\"14\" height=\"14\" fill=\"{color}\"/>\n");
            if (svg is not null) Text(svg, x + 20, y, name, "start", 12);
            x += width + 24;
        }
        return rows;
    }

    public const int LegendRowHeight = 20;

    public static string Label(double value) => value >= 10_000 ? N(value / 1000) + "k" : N(value);

    public static void Text(StringBuilder svg, double x, double y, string text, string anchor = "start", int size = 12, string extra = "") =>
        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{N(x)}\" y=\"{N(y)}\" font-size=\"{size}\" text-anchor=\"{anchor}\" {extra}>{Esc(text)}</text>\n");

    public static void Line(StringBuilder svg, double x1, double y1, double x2, double y2, string color, double width = 1, string dash = "") =>
        svg.Append(CultureInfo.InvariantCulture, $"<line x1=\"{N(x1)}\" y1=\"{N(y1)}\" x2=\"{N(x2)}\" y2=\"{N(y2)}\" stroke=\"{color}\" stroke-width=\"{N(width)}\"{(dash.Length > 0 ? $" stroke-dasharray=\"{dash}\"" : "")}/>\n");

    public static string Open(int width, int height) =>
        $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}
