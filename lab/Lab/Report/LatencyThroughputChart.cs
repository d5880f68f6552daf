using System.Text;
using Harness.Charts;

namespace Lab.Report;

/// <summary>
/// One scenario, every architecture: p50 and p99 of each second (y, log scale) against the rate
/// answered in that second (x). Where a curve turns upward is that architecture's knee; the
/// rightmost point below the SLO line is what it can serve.
/// </summary>
public static class LatencyThroughputChart
{
    private const int Width = 960, Height = 480, Left = 70, Right = 20, Top = 56, Bottom = 80;

    /// <summary>The seconds worth plotting: answered, not the last partial one, not the drain after the schedule ended.</summary>
    public static IReadOnlyList<SecondPoint> Points(RunAnalysis run)
    {
        var last = run.Seconds.Count == 0 ? 0 : run.Seconds.Max(s => s.Second);
        return run.Seconds.Where(s => s.Responses > 0 && s.Second < last && (run.PeakPlannedRps <= 0 || s.PlannedRps > 0)).ToList();
    }

    public static string Render(string scenario, IReadOnlyList<RunAnalysis> runs, double sloMs, IReadOnlyList<string> storageOrder)
    {
        var series = runs.Select(r => (Run: r, Points: Points(r))).Where(s => s.Points.Count > 0).ToList();
        var all = series.SelectMany(s => s.Points).ToList();
        var maxRps = Svg.NiceMax(all.Count == 0 ? 1 : all.Max(p => p.Responses) * 1.05);
        var lowMs = all.Count == 0 ? 0.1 : Math.Max(0.01, all.Min(p => Math.Max(0.001, p.P50Ms)));
        var highMs = Math.Max(sloMs, all.Count == 0 ? 1 : all.Max(p => p.P99Ms));
        var minExp = (int)Math.Floor(Math.Log10(lowMs));
        var maxExp = Math.Max(minExp + 1, (int)Math.Ceiling(Math.Log10(highMs)));
        var plotW = Width - Left - Right;
        var plotH = Height - Top - Bottom;
        double X(double rps) => Left + rps / maxRps * plotW;
        double Y(double ms) => Top + plotH - (Math.Log10(Math.Clamp(ms, Math.Pow(10, minExp), Math.Pow(10, maxExp))) - minExp) / (maxExp - minExp) * plotH;

        var legend = series.Select(s => (s.Run.Storage, Svg.Palette[Math.Max(0, IndexOf(storageOrder, s.Run.Storage)) % Svg.Palette.Length])).ToList();
        var height = Height + Math.Max(0, Svg.Legend(null, legend, Left, Width - Right, 0) - 1) * Svg.LegendRowHeight;
        var svg = new StringBuilder(Svg.Open(Width, height));
        Svg.Text(svg, Width / 2.0, 22, $"{scenario}: latency against throughput, one point a second", "middle", 15, "font-weight=\"bold\"");
        for (var e = minExp; e <= maxExp; e++)
        {
            foreach (var m in new[] { 1, 2, 5 })
            {
                var ms = m * Math.Pow(10, e);
                if (e == maxExp && m > 1) break;
                var y = Y(ms);
                Svg.Line(svg, Left, y, Width - Right, y, m == 1 ? "#d0d0d0" : "#eeeeee");
                Svg.Text(svg, Left - 6, y + 4, Svg.N(ms), "end", 11);
            }
        }
        for (var i = 0; i <= 5; i++)
        {
            var x = Left + i / 5.0 * plotW;
            Svg.Line(svg, x, Top, x, Top + plotH, "#eeeeee");
            Svg.Text(svg, x, Top + plotH + 16, Svg.Label(maxRps * i / 5), "middle", 11);
        }
        Svg.Text(svg, Left + plotW / 2.0, Top + plotH + 34, "responses in that second (rps)", "middle", 12);
        Svg.Text(svg, 16, Top + plotH / 2.0, "latency, ms (log scale)", "middle", 12, $"transform=\"rotate(-90 16 {Svg.N(Top + plotH / 2.0)})\"");
        Svg.Line(svg, Left, Y(sloMs), Width - Right, Y(sloMs), "#d62728", 1, "6 4");
        Svg.Text(svg, Width - Right - 4, Y(sloMs) - 4, $"SLO p99 {Svg.N(sloMs)} ms", "end", 11, "fill=\"#d62728\"");

        foreach (var (run, points) in series)
        {
            var color = Svg.Palette[Math.Max(0, IndexOf(storageOrder, run.Storage)) % Svg.Palette.Length];
            Polyline(svg, points.Select(p => (X(p.Responses), Y(p.P50Ms))), color, 1.2, "5 3");
            Polyline(svg, points.Select(p => (X(p.Responses), Y(p.P99Ms))), color, 1.6, "");
            foreach (var p in points)
                svg.Append($"<circle cx=\"{Svg.N(X(p.Responses))}\" cy=\"{Svg.N(Y(p.P99Ms))}\" r=\"2.2\" fill=\"{color}\"><title>{Svg.Esc($"{run.Storage}, second {p.Second}: {p.Responses} rps, p50 {Svg.N(p.P50Ms)} ms, p99 {Svg.N(p.P99Ms)} ms")}</title></circle>\n");
        }

        // Legend: one colour per architecture (wrapped into rows), then what the two line styles mean.
        Svg.Legend(svg, legend, Left, Width - Right, Height - 22);
        var sx = Width - Right - 230.0;
        Svg.Line(svg, sx, 40, sx + 24, 40, "#333333", 1.6);
        Svg.Text(svg, sx + 28, 44, "p99 (dots)", "start", 12);
        Svg.Line(svg, sx + 110, 40, sx + 134, 40, "#333333", 1.2, "5 3");
        Svg.Text(svg, sx + 138, 44, "p50", "start", 12);
        return svg.Append("</svg>\n").ToString();
    }

    private static int IndexOf(IReadOnlyList<string> list, string value)
    {
        for (var i = 0; i < list.Count; i++) if (list[i] == value) return i;
        return -1;
    }

    private static void Polyline(StringBuilder svg, IEnumerable<(double X, double Y)> points, string color, double width, string dash)
    {
        var path = string.Join(" ", points.Select(p => $"{Svg.N(p.X)},{Svg.N(p.Y)}"));
        if (path.Length == 0) return;
        svg.Append($"<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"{Svg.N(width)}\" stroke-opacity=\"0.85\"{(dash.Length > 0 ? $" stroke-dasharray=\"{dash}\"" : "")} points=\"{path}\"/>\n");
    }
}
