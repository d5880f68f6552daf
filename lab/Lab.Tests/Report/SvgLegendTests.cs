using System.Text;
using System.Text.RegularExpressions;
using Lab.Report;
using Harness.Charts;

namespace Lab.Tests.Report;

public sealed class SvgLegendTests
{
    private static readonly (string, string)[] NineArchitectures =
        [.. new[] { "postgres", "postgres ×3", "redis-cluster", "redis-persistent", "redis-persistent ×3", "tarantool-memtx",
            "tarantool-memtx ×3", "tarantool-vinyl", "tarantool-vinyl ×3" }.Select(n => (n, "#000000"))];

    [Fact]
    public void ALegendTooWideForOneRowWrapsAndNoNameRunsPastTheRightEdge()
    {
        var svg = new StringBuilder();
        var rows = Svg.Legend(svg, NineArchitectures, left: 70, right: 940, baseline: 100);

        Assert.Equal(rows, Svg.Legend(null, NineArchitectures, 70, 940, 100));
        Assert.True(rows >= 2);
        var texts = Regex.Matches(svg.ToString(), "<text x=\"([0-9.]+)\" y=\"([0-9.]+)\"[^>]*>([^<]*)</text>");
        Assert.Equal(9, texts.Count);
        foreach (Match t in texts)
        {
            var x = double.Parse(t.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            Assert.True(x + t.Groups[3].Value.Length * 7 <= 940, $"'{t.Groups[3].Value}' at x={x} runs past the edge");
        }
        Assert.Equal(rows, texts.Select(t => t.Groups[2].Value).Distinct().Count());
    }

    [Fact]
    public void AShortLegendIsOneRow() => Assert.Equal(1, Svg.Legend(null, NineArchitectures[..3], 70, 940, 100));
}
