using Lab.Report;

namespace Lab.Compare;

/// <summary>The min–max of a figure over a cell's repeated runs (a single run: its one value).</summary>
public readonly record struct Spread(double Min, double Max)
{
    public static Spread Of(double value) => new(value, value);

    public static Spread? Of(IReadOnlyCollection<double> values) => values.Count == 0 ? null : new(values.Min(), values.Max());

    public bool Overlaps(Spread other) => Min <= other.Max && other.Min <= Max;

    public bool IsPoint => Min == Max;
}
