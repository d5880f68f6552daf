using Lab.Report;

namespace Lab.Compare;

/// <summary>The min–max of a figure over a cell's repeated runs (a single run: its one value).</summary>
public readonly record struct Spread(double Min, double Max)
{
    public static Spread Of(double value) => new(value, value);

    public static Spread? Of(IReadOnlyCollection<double> values) => values.Count == 0 ? null : new(values.Min(), values.Max());

    public bool Overlaps(Spread other) => Min <= other.Max && other.Min <= Max;

    /// <summary>
    /// How far apart the two spreads' nearest edges are, in % of this (BASE's) edge: 0 when they
    /// overlap; for single runs, the change itself.
    /// </summary>
    public double GapPercent(Spread newer)
    {
        if (Overlaps(newer)) return 0;
        var (edge, gap) = newer.Max < Min ? (Min, Min - newer.Max) : (Max, newer.Min - Max);
        return edge == 0 ? double.PositiveInfinity : gap / Math.Abs(edge) * 100;
    }

    public bool IsPoint => Min == Max;
}
