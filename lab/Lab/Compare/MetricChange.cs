using System.Globalization;

namespace Lab.Compare;

/// <summary>One figure of one cell in BASE and NEW, and what compare made of the change.</summary>
public sealed record MetricChange(Metric Metric, Figure? Base, Figure? New, double? ChangePercent, Judgement Judgement, string Why)
{
    /// <summary>"1234 → 987 (−20.0 %)", spreads shown as [min–max] when a figure had repeats.</summary>
    public string Cell()
    {
        if (Base is null || New is null) return $"{Show(Base)} → {Show(New)}";
        var change = ChangePercent is { } c && double.IsFinite(c) ? $" ({(c >= 0 ? "+" : "−")}{Math.Abs(c).ToString("0.0", CultureInfo.InvariantCulture)} %)" : "";
        return $"{Show(Base)} → {Show(New)}{change}{Judgement switch { Judgement.Worse => " ✗", Judgement.Better => " ✓", _ => "" }}";
    }

    private static string Show(Figure? figure) => figure is null ? "—"
        : figure.Spread.IsPoint ? N(figure.Value)
        : $"{N(figure.Value)} [{N(figure.Spread.Min)}–{N(figure.Spread.Max)}]";

    public static string N(double value) => value.ToString(Math.Abs(value) >= 100 ? "0" : Math.Abs(value) >= 10 ? "0.0" : "0.00", CultureInfo.InvariantCulture);
}
