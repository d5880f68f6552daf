using System.Text;
using Harness.Charts;

namespace Lab.Report;

/// <summary>
/// All architectures side by side: grouped bars per scenario, the max rate sustained under the SLO
/// (top panel) and the p99 over the whole run (bottom panel).
/// </summary>
public static class ComparisonChart
{
    private const int Width = 960, PanelHeight = 300, Left = 70, Right = 20, Top = 50;

    public static string Render(IReadOnlyList<RunAnalysis> runs, double sloMs)
    {
        var storages = runs.Select(r => r.Storage).Distinct().ToList();
        var scenarios = runs.Select(r => r.Scenario).Distinct().ToList();
        var legend = storages.Select((name, i) => (name, Svg.Palette[i % Svg.Palette.Length])).ToList();
        var legendRows = Svg.Legend(null, legend, Left, Width - Right, 0);
        var height = Top + 2 * PanelHeight + 40 + Math.Max(0, legendRows - 1) * Svg.LegendRowHeight;
        var svg = new StringBuilder(Svg.Open(Width, height));
        Svg.Text(svg, Width / 2.0, 22, "Architectures compared", "middle", 15, "font-weight=\"bold\"");
        // A searched cell's bar is its confirmed rate; a cell without a search keeps the ramp's figure.
        var searched = runs.Any(r => r.Capacity is not null);
        Panel(svg, runs, storages, scenarios, Top,
            searched ? $"capacity at p99 ≤ {Svg.N(sloMs)} ms and < 0.1 % errors: the median of the repetitions (the ramp's figure where none ran)" +
                       (runs.Any(NotEstablished) ? "; hollow, ≤: not established" : "")
                     : $"max rps with p99 ≤ {Svg.N(sloMs)} ms and < 0.1 % errors (≥: still held at the ramp's top)",
            r => r.Capacity is { } c ? c.ConfirmedRps : r.MaxSustainedRps,
            r => r.Capacity is { } c ? (c.Established ? "" : "≤") + Svg.Label(c.ConfirmedRps) : (r.SloHeldAtPeak ? "≥" : "") + Svg.Label(r.MaxSustainedRps),
            NotEstablished);
        Panel(svg, runs, storages, scenarios, Top + PanelHeight, searched ? "p99 over the ramp, ms" : "p99 latency over the run, ms", r => r.QuantilesMs["p99"]);
        Svg.Legend(svg, legend, Left, Width - Right, Top + 2 * PanelHeight + 26);
        return svg.Append("</svg>\n").ToString();
    }

    /// <summary>A cell most of whose repetitions held no confirmation: its bar is drawn hollow, its label "≤".</summary>
    private static bool NotEstablished(RunAnalysis run) => run.Capacity is { Established: false };

    private static void Panel(StringBuilder svg, IReadOnlyList<RunAnalysis> runs, List<string> storages, List<string> scenarios,
        int top, string title, Func<RunAnalysis, double> value, Func<RunAnalysis, string>? label = null, Func<RunAnalysis, bool>? hollow = null)
    {
        var plotTop = top + 24;
        var plotBottom = top + PanelHeight - 40;
        var max = Svg.NiceMax(runs.Count == 0 ? 1 : runs.Max(value) * 1.1);
        Svg.Text(svg, Left, top + 12, title, "start", 13, "font-weight=\"bold\"");
        for (var i = 0; i <= 4; i++)
        {
            var y = plotBottom - i / 4.0 * (plotBottom - plotTop);
            Svg.Line(svg, Left, y, Width - Right, y, "#e5e5e5");
            Svg.Text(svg, Left - 6, y + 4, Svg.Label(max * i / 4), "end", 11);
        }
        var groupWidth = (Width - Left - Right) / (double)Math.Max(1, scenarios.Count);
        var barWidth = groupWidth * 0.8 / Math.Max(1, storages.Count);
        for (var g = 0; g < scenarios.Count; g++)
        {
            var groupX = Left + g * groupWidth + groupWidth * 0.1;
            Svg.Text(svg, Left + (g + 0.5) * groupWidth, plotBottom + 16, scenarios[g], "middle", 12);
            for (var s = 0; s < storages.Count; s++)
            {
                var run = runs.FirstOrDefault(r => r.Scenario == scenarios[g] && r.Storage == storages[s]);
                if (run is null) continue;
                var v = value(run);
                var h = v / max * (plotBottom - plotTop);
                var x = groupX + s * barWidth;
                var colour = Svg.Palette[s % Svg.Palette.Length];
                var open = hollow?.Invoke(run) == true;
                var paint = open ? $"fill=\"white\" stroke=\"{colour}\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"" : $"fill=\"{colour}\"";
                svg.Append($"<rect x=\"{Svg.N(x)}\" y=\"{Svg.N(plotBottom - h)}\" width=\"{Svg.N(barWidth - 2)}\" height=\"{Svg.N(h)}\" {paint}><title>{Svg.Esc($"{run.Storage} {run.Scenario}: {(open ? "≤ " : "")}{Svg.N(v)}{(open ? " (not established: most repetitions held no confirmation)" : "")}")}</title></rect>\n");
                Svg.Text(svg, x + barWidth / 2 - 1, plotBottom - h - 3, label?.Invoke(run) ?? Svg.Label(v), "middle", 9);
            }
        }
    }
}
