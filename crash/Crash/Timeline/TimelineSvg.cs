using System.Text;
using Harness.Charts;

namespace Crash.Timeline;

/// <summary>
/// A run's timeline as an SVG chart drawn with tank's SVG helpers, in the look of its timelines: p99
/// per second (log scale, the SLO dashed) over the 503s per second (bars, right axis), the fault
/// window shaded.
/// </summary>
public static class TimelineSvg
{
    /// <summary>The caption's font size; a line of it must fit between the left margin and the chart's right edge.</summary>
    public const int CaptionFontSize = 11;

    /// <summary>The widest caption line, in px: from the plot's left edge to the chart's right edge.</summary>
    public const int CaptionWidth = Width - Left;

    /// <summary>The caption under the plot, one line each: the legend, the return under the SLO, and the return to the run's own level.</summary>
    public static IReadOnlyList<string> CaptionLines(double sloMs, string back, long shed503, string? baseline) =>
    [
        $"p99 (blue), SLO {Svg.N(sloMs)} ms (red), 503s (orange), fault shaded",
        $"{back}; {shed503} answered 503 meanwhile",
        .. baseline is null ? Array.Empty<string>() : [baseline],
    ];

    private const int Width = 760, Height = 335, Left = 60, Right = 70, Top = 40, Bottom = 65;

    public static string Render(RunTimeline timeline, string title)
    {
        var seconds = timeline.Seconds;
        var span = Math.Max(1, seconds.Count == 0 ? 1 : seconds[^1].Second + 1);
        double plotW = Width - Left - Right, plotH = Height - Top - Bottom, bottom = Height - Bottom;
        double X(double s) => Left + s / span * plotW;
        var minMs = Math.Min(0.1, timeline.SloMs / 10);
        var maxMs = Math.Max(timeline.SloMs * 10, seconds.Max(s => s.P99Ms) ?? 1);
        double YMs(double ms) => bottom - (Math.Log10(Math.Clamp(ms, minMs, maxMs)) - Math.Log10(minMs)) / (Math.Log10(maxMs) - Math.Log10(minMs)) * plotH;
        var max503 = Svg.NiceMax(Math.Max(1, seconds.Count == 0 ? 1 : seconds.Max(s => s.Http503)));
        double Y503(double n) => bottom - n / max503 * plotH;

        var svg = new StringBuilder(Svg.Open(Width, Height));
        Svg.Text(svg, Width / 2.0, 22, title + ": p99 and 503s per second", "middle", 14, "font-weight=\"bold\"");
        if (timeline.FaultStartedS is { } start)
        {
            var end = timeline.FaultEndedS ?? span;
            // A fault that outlasted the run (servers that never came back whole) is shaded to the plot's edge, not over the axis.
            svg.Append($"<rect x=\"{Svg.N(X(start))}\" y=\"{Top}\" width=\"{Svg.N(Math.Max(1, X(Math.Min(end, span)) - X(start)))}\" height=\"{Svg.N(plotH)}\" fill=\"#f4c7c3\" opacity=\"0.6\"><title>fault {Svg.N(start)}–{Svg.N(end)} s</title></rect>\n");
        }
        foreach (var s in seconds.Where(s => s.Http503 > 0))
            svg.Append($"<rect x=\"{Svg.N(X(s.Second) + 1)}\" y=\"{Svg.N(Y503(s.Http503))}\" width=\"{Svg.N(Math.Max(1, X(1) - X(0) - 2))}\" height=\"{Svg.N(bottom - Y503(s.Http503))}\" fill=\"{Svg.Palette[3]}\" opacity=\"0.7\"><title>{s.Second} s: {s.Http503} × 503</title></rect>\n");
        foreach (var ms in new[] { 0.1, 1, 10, 100, 1000, 10000 }.Where(ms => ms >= minMs && ms <= maxMs))
        {
            Svg.Line(svg, Left, YMs(ms), Width - Right, YMs(ms), "#e5e5e5");
            Svg.Text(svg, Left - 6, YMs(ms) + 4, Svg.N(ms), "end", 11);
        }
        for (var i = 1; i <= 4; i++) Svg.Text(svg, Width - Right + 6, Y503(max503 * i / 4) + 4, Svg.Label(max503 * i / 4), "start", 11);
        var tickStep = Math.Max(1, Math.Ceiling(span / 8.0));
        for (var t = 0.0; t <= span; t += tickStep) Svg.Text(svg, X(t), bottom + 16, $"{Svg.N(t)} s", "middle", 11);
        Svg.Text(svg, 14, Top + plotH / 2, "p99, ms (log)", "middle", 12, $"transform=\"rotate(-90 14 {Svg.N(Top + plotH / 2)})\"");
        Svg.Text(svg, Width - 12, Top + plotH / 2, "503 per second", "middle", 12, $"transform=\"rotate(90 {Width - 12} {Svg.N(Top + plotH / 2)})\"");
        Svg.Line(svg, Left, YMs(timeline.SloMs), Width - Right, YMs(timeline.SloMs), "#d62728", 1, "6 4");
        var points = string.Join(' ', seconds.Where(s => s.P99Ms is not null).Select(s => $"{Svg.N(X(s.Second + 0.5))},{Svg.N(YMs(s.P99Ms!.Value))}"));
        svg.Append($"<polyline fill=\"none\" stroke=\"{Svg.Palette[0]}\" stroke-width=\"2\" points=\"{points}\"/>\n");
        var back = timeline.P99BackS is { } b ? $"p99 back under the SLO {Svg.N(b)} s after the fault" : "p99 not back under the SLO within the run";
        string? baseline = null;
        if (timeline.BaselineP99Ms is { } level && level > timeline.SloMs)
        {
            // The load alone kept p99 over the SLO: the run's own level before the fault is the one to return to.
            Svg.Line(svg, Left, YMs(level), Width - Right, YMs(level), "#7f7f7f", 1, "2 3");
            baseline = timeline.BaselineBackS is { } bb
                ? $"back to its {Svg.N(level)} ms before the fault (grey) {Svg.N(bb)} s after"
                : $"not back to its {Svg.N(level)} ms before the fault (grey) within the run";
        }
        // A line each: together they ran past the chart's width.
        foreach (var (line, i) in CaptionLines(timeline.SloMs, back, timeline.Shed503, baseline).Select((line, i) => (line, i)))
        {
            Svg.Text(svg, Left, Height - 39 + 15 * i, line, "start", CaptionFontSize);
        }
        return svg.Append("</svg>\n").ToString();
    }
}
