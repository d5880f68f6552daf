using System.Text;
using Harness.Charts;

namespace Lab.Report;

/// <summary>
/// Latency quantiles over time (left axis, ms) with the planned and answered rate and the errors per
/// second (right axis, rps):
/// Tank's "quantiles over time with the planned-rps line", one per run.
/// </summary>
public static class TimelineChart
{
    private const int Width = 900, Height = 380, Left = 60, Right = 70, Top = 40, Bottom = 50;

    public static string Render(RunAnalysis run, double sloMs)
    {
        var points = run.Seconds;
        var maxX = Math.Max(1, points.Count == 0 ? 1 : points.Max(p => p.Second));
        var minX = Math.Min(0, points.Count == 0 ? 0 : points.Min(p => p.Second));
        var maxMs = Svg.NiceMax(Math.Max(sloMs, points.Count == 0 ? 1 : points.Max(p => p.P99Ms)) * 1.1);
        var maxRps = Svg.NiceMax(points.Count == 0 ? 1 : points.Max(p => Math.Max(p.PlannedRps, p.Responses)) * 1.1);
        double X(double s) => Left + (s - minX) / (maxX - minX) * (Width - Left - Right);
        double YMs(double ms) => Height - Bottom - Math.Min(ms, maxMs) / maxMs * (Height - Top - Bottom);
        double YRps(double rps) => Height - Bottom - rps / maxRps * (Height - Top - Bottom);

        var svg = new StringBuilder(Svg.Open(Width, Height));
        Svg.Text(svg, Width / 2.0, 22, $"{run.Storage} · {run.Scenario}: latency quantiles and rate over time", "middle", 14, "font-weight=\"bold\"");
        for (var i = 0; i <= 5; i++)
        {
            var y = Height - Bottom - i / 5.0 * (Height - Top - Bottom);
            Svg.Line(svg, Left, y, Width - Right, y, "#e5e5e5");
            Svg.Text(svg, Left - 6, y + 4, Svg.N(maxMs * i / 5), "end", 11);
            Svg.Text(svg, Width - Right + 6, y + 4, Svg.Label(maxRps * i / 5), "start", 11);
        }
        // Whole-second ticks, at most about seven, so short runs never repeat a label.
        var tickStep = Math.Max(1, Math.Ceiling((maxX - minX) / 6.0));
        for (var s = Math.Ceiling((double)minX); s <= maxX; s += tickStep)
        {
            Svg.Text(svg, X(s), Height - Bottom + 16, $"{Svg.N(s)} s", "middle", 11);
        }
        Svg.Text(svg, 14, Top + (Height - Top - Bottom) / 2.0, "latency, ms", "middle", 12, $"transform=\"rotate(-90 14 {Svg.N(Top + (Height - Top - Bottom) / 2.0)})\"");
        Svg.Text(svg, Width - 12, Top + (Height - Top - Bottom) / 2.0, "requests per second", "middle", 12, $"transform=\"rotate(90 {Width - 12} {Svg.N(Top + (Height - Top - Bottom) / 2.0)})\"");
        Svg.Line(svg, Left, YMs(sloMs), Width - Right, YMs(sloMs), "#d62728", 1, "6 4");

        Series(svg, points.Select(p => (X(p.Second), YRps(p.PlannedRps))), "#999999", 2, "4 3");
        Series(svg, points.Select(p => (X(p.Second), YRps(p.Responses))), "#bbbbbb", 1.5, "");
        // Answers that were errors (HTTP ≥ 400 or no answer): overload shedding shows as this line rising.
        if (points.Any(p => p.Errors > 0)) Series(svg, points.Select(p => (X(p.Second), YRps(p.Errors))), "#8c1d1d", 1.5, "2 2");
        Series(svg, points.Select(p => (X(p.Second), YMs(p.P50Ms))), Svg.Palette[0], 1.5, "");
        Series(svg, points.Select(p => (X(p.Second), YMs(p.P90Ms))), Svg.Palette[2], 1.5, "");
        Series(svg, points.Select(p => (X(p.Second), YMs(p.P99Ms))), Svg.Palette[3], 1.5, "");

        var legend = new (string Name, string Color, string Dash)[]
        {
            ("p50", Svg.Palette[0], ""), ("p90", Svg.Palette[2], ""), ("p99", Svg.Palette[3], ""),
            ($"SLO {Svg.N(sloMs)} ms", "#d62728", "6 4"), ("planned rps", "#999999", "4 3"), ("answered rps", "#bbbbbb", ""),
            ("errors/s", "#8c1d1d", "2 2"),
        };
        for (var i = 0; i < legend.Length; i++)
        {
            var x = Left + i * 112;
            Svg.Line(svg, x, Height - 14, x + 24, Height - 14, legend[i].Color, 2, legend[i].Dash);
            Svg.Text(svg, x + 30, Height - 10, legend[i].Name, "start", 11);
        }
        return svg.Append("</svg>\n").ToString();
    }

    private static void Series(StringBuilder svg, IEnumerable<(double X, double Y)> points, string color, double width, string dash)
    {
        var path = string.Join(" ", points.Select(p => $"{Svg.N(p.X)},{Svg.N(p.Y)}"));
        if (path.Length == 0) return;
        svg.Append($"<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"{Svg.N(width)}\"{(dash.Length > 0 ? $" stroke-dasharray=\"{dash}\"" : "")} points=\"{path}\"/>\n");
    }
}
