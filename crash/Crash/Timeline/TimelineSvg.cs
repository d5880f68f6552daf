using System.Globalization;
using System.Net;
using System.Text;

namespace Crash.Timeline;

/// <summary>
/// A run's timeline as an SVG chart: p99 per second (a line, log scale, the SLO dashed) over the 503s
/// per second (bars), the fault window shaded.
/// </summary>
public static class TimelineSvg
{
    private const int Width = 720, Height = 300, Left = 60, Right = 50, Top = 30, Bottom = 40;

    public static string Render(RunTimeline timeline, string title)
    {
        var seconds = timeline.Seconds;
        var span = Math.Max(1, seconds.Count == 0 ? 1 : seconds[^1].Second + 1);
        var plotW = Width - Left - Right;
        var plotH = Height - Top - Bottom;
        double X(double s) => Left + s / span * plotW;
        var maxMs = Math.Max(timeline.SloMs * 10, seconds.Max(s => s.P99Ms) ?? 1);
        var minMs = Math.Min(0.1, timeline.SloMs / 10);
        double Y(double ms) => Top + plotH * (1 - (Math.Log10(Math.Max(ms, minMs)) - Math.Log10(minMs)) / (Math.Log10(maxMs) - Math.Log10(minMs)));
        var max503 = Math.Max(1, seconds.Count == 0 ? 1 : seconds.Max(s => s.Http503));
        double Y503(double n) => Top + plotH * (1 - n / max503);

        var svg = new StringBuilder();
        svg.AppendLine(F($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{Height}\" font-family=\"sans-serif\" font-size=\"11\">"));
        svg.AppendLine(F($"<rect width=\"{Width}\" height=\"{Height}\" fill=\"white\"/>"));
        svg.AppendLine(F($"<text x=\"{Left}\" y=\"18\" font-size=\"13\">{WebUtility.HtmlEncode(title)}</text>"));
        if (timeline.FaultStartedS is { } start)
        {
            var end = timeline.FaultEndedS ?? span;
            svg.AppendLine(F($"<rect x=\"{X(start):0.#}\" y=\"{Top}\" width=\"{Math.Max(1, X(end) - X(start)):0.#}\" height=\"{plotH}\" fill=\"#f4c7c3\" opacity=\"0.6\"><title>fault {start:0.##}–{end:0.##} s</title></rect>"));
        }
        foreach (var s in seconds.Where(s => s.Http503 > 0))
            svg.AppendLine(F($"<rect x=\"{X(s.Second) + 1:0.#}\" y=\"{Y503(s.Http503):0.#}\" width=\"{Math.Max(1, X(1) - X(0) - 2):0.#}\" height=\"{Top + plotH - Y503(s.Http503):0.#}\" fill=\"#e8a33d\"><title>{s.Second} s: {s.Http503} × 503</title></rect>"));
        svg.AppendLine(F($"<line x1=\"{Left}\" x2=\"{Left + plotW}\" y1=\"{Y(timeline.SloMs):0.#}\" y2=\"{Y(timeline.SloMs):0.#}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>"));
        svg.AppendLine(F($"<text x=\"{Left + plotW + 4}\" y=\"{Y(timeline.SloMs) + 4:0.#}\" fill=\"#888\">SLO {timeline.SloMs:0.##} ms</text>"));
        var points = string.Join(' ', seconds.Where(s => s.P99Ms is not null).Select(s => F($"{X(s.Second + 0.5):0.#},{Y(s.P99Ms!.Value):0.#}")));
        svg.AppendLine($"<polyline points=\"{points}\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>");
        foreach (var ms in new[] { 0.1, 1, 10, 100, 1000, 10000 }.Where(ms => ms >= minMs && ms <= maxMs))
            svg.AppendLine(F($"<text x=\"{Left - 6}\" y=\"{Y(ms) + 4:0.#}\" text-anchor=\"end\">{ms:0.#} ms</text>"));
        svg.AppendLine(F($"<text x=\"{Left + plotW + 4}\" y=\"{Top + 10}\" fill=\"#e8a33d\">{max503} × 503</text>"));
        for (var t = 0; t <= span; t += Math.Max(1, span / 10))
            svg.AppendLine(F($"<text x=\"{X(t):0.#}\" y=\"{Top + plotH + 15}\" text-anchor=\"middle\">{t} s</text>"));
        svg.AppendLine(F($"<rect x=\"{Left}\" y=\"{Top}\" width=\"{plotW}\" height=\"{plotH}\" fill=\"none\" stroke=\"#333\"/>"));
        var back = timeline.P99BackS is { } b ? F($"p99 back under the SLO {b:0.##} s after the fault") : "p99 never back under the SLO";
        svg.AppendLine(F($"<text x=\"{Left}\" y=\"{Height - 8}\">p99 per second (blue, log scale), 503s per second (orange), fault shaded; {back}; {timeline.Shed503} × 503 meanwhile</text>"));
        svg.AppendLine("</svg>");
        return svg.ToString();
    }

    private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
