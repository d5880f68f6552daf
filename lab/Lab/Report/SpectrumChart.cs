using System.Text;
using Harness.Charts;

namespace Lab.Report;

/// <summary>
/// One scenario, every architecture: the whole latency spectrum of each run (its HdrHistogram, as
/// latency.hgrm has it) — latency (y, log scale) by percentile, x on HdrHistogram's log scale
/// 1/(1−p), so 90 %, 99 %, 99.9 % … lie equally apart and the tail gets the room it deserves.
/// A line ends at the percentile the run's request count still resolves.
/// </summary>
public static class SpectrumChart
{
    private const int Width = 960, Height = 440, Left = 70, Right = 40, Top = 40, Bottom = 80; // room for the last tick's label
    private const double Step = 0.05; // in decades of 1/(1−p)

    /// <summary>The decades of 1/(1−p) a run of <paramref name="count"/> requests resolves (at most 5: p99.999).</summary>
    public static double Decades(long count) => Math.Clamp(Math.Log10(Math.Max(1, count)), 0, 5);

    /// <summary>The percentile at <paramref name="x"/> decades: 1 − 10^−x, in %.</summary>
    public static double PercentileAt(double x) => 100 * (1 - Math.Pow(10, -x));

    /// <summary>The axis label at <paramref name="decades"/>: 0 %, 90 %, 99 %, 99.9 % … (never rounded up to 100 %).</summary>
    public static string Label(int decades) => decades switch
    {
        0 => "0 %",
        1 => "90 %",
        _ => "99" + (decades > 2 ? "." + new string('9', decades - 2) : "") + " %",
    };

    /// <summary>(decades, latency ms) points of one run's spectrum.</summary>
    public static IReadOnlyList<(double X, double Ms)> Points(Tank.Stats.LatencyHistogram spectrum)
    {
        var top = Decades(spectrum.Count);
        var points = new List<(double, double)>();
        for (var x = 0.0; x <= top + 1e-9; x += Step) points.Add((x, spectrum.Percentile(PercentileAt(x)) / 1000.0));
        return points;
    }

    public static string Render(string scenario, IReadOnlyList<RunAnalysis> runs, double sloMs, IReadOnlyList<string> storageOrder)
    {
        var series = runs.Where(r => r.Spectrum is { Count: > 0 }).Select(r => (Run: r, Points: Points(r.Spectrum!))).ToList();
        var all = series.SelectMany(s => s.Points).Select(p => p.Ms).ToList();
        var minExp = (int)Math.Floor(Math.Log10(Math.Max(0.01, all.Count == 0 ? 0.1 : all.Min())));
        var maxExp = Math.Max(minExp + 1, (int)Math.Ceiling(Math.Log10(Math.Max(sloMs, all.Count == 0 ? 1 : all.Max()))));
        var decades = Math.Max(2, (int)Math.Ceiling(series.Count == 0 ? 2 : series.Max(s => s.Points[^1].X)));
        var plotW = Width - Left - Right;
        var plotH = Height - Top - Bottom;
        double X(double x) => Left + x / decades * plotW;
        double Y(double ms) => Top + plotH - (Math.Log10(Math.Clamp(ms, Math.Pow(10, minExp), Math.Pow(10, maxExp))) - minExp) / (maxExp - minExp) * plotH;
        string Color(string storage) => Svg.Palette[Math.Max(0, IndexOf(storageOrder, storage)) % Svg.Palette.Length];

        var legend = series.Select(s => (s.Run.Storage, Color(s.Run.Storage))).ToList();
        var height = Height + Math.Max(0, Svg.Legend(null, legend, Left, Width - Right, 0) - 1) * Svg.LegendRowHeight;
        var svg = new StringBuilder(Svg.Open(Width, height));
        Svg.Text(svg, Width / 2.0, 22, $"{scenario}: latency by percentile (the whole measured run)", "middle", 15, "font-weight=\"bold\"");
        for (var e = minExp; e <= maxExp; e++)
            foreach (var m in new[] { 1, 2, 5 })
            {
                if (e == maxExp && m > 1) break;
                var ms = m * Math.Pow(10, e);
                Svg.Line(svg, Left, Y(ms), Width - Right, Y(ms), m == 1 ? "#d0d0d0" : "#eeeeee");
                Svg.Text(svg, Left - 6, Y(ms) + 4, Svg.N(ms), "end", 11);
            }
        for (var d = 0; d <= decades; d++)
        {
            Svg.Line(svg, X(d), Top, X(d), Top + plotH, "#eeeeee");
            Svg.Text(svg, X(d), Top + plotH + 16, Label(d), "middle", 11);
        }
        Svg.Text(svg, Left + plotW / 2.0, Top + plotH + 34, "percentile (log scale of 1/(1−p))", "middle", 12);
        Svg.Text(svg, 16, Top + plotH / 2.0, "latency, ms (log scale)", "middle", 12, $"transform=\"rotate(-90 16 {Svg.N(Top + plotH / 2.0)})\"");
        Svg.Line(svg, Left, Y(sloMs), Width - Right, Y(sloMs), "#d62728", 1, "6 4");
        Svg.Text(svg, Left + 4, Y(sloMs) - 4, $"SLO {Svg.N(sloMs)} ms", "start", 11, "fill=\"#d62728\"");
        Svg.Line(svg, X(2), Top, X(2), Top + plotH, "#d62728", 0.8, "2 3"); // p99, where the SLO is judged

        foreach (var (run, points) in series)
        {
            var path = string.Join(" ", points.Select(p => $"{Svg.N(X(p.X))},{Svg.N(Y(p.Ms))}"));
            svg.Append($"<polyline fill=\"none\" stroke=\"{Color(run.Storage)}\" stroke-width=\"1.8\" points=\"{path}\"><title>{Svg.Esc($"{run.Storage}: p50 {Svg.N(run.QuantilesMs["p50"])} ms, p99 {Svg.N(run.QuantilesMs["p99"])} ms, max {Svg.N(run.MaxMs)} ms")}</title></polyline>\n");
        }
        Svg.Legend(svg, legend, Left, Width - Right, Height - 22);
        return svg.Append("</svg>\n").ToString();
    }

    private static int IndexOf(IReadOnlyList<string> list, string value)
    {
        for (var i = 0; i < list.Count; i++) if (list[i] == value) return i;
        return -1;
    }
}
