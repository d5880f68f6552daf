using Lab.Report;

namespace Lab.Compare;

/// <summary>One figure of a cell (capacity, p99, CPU per request): the value compared and the spread of its repeats.</summary>
public sealed record Figure(double Value, Spread Spread)
{
    public static Figure Single(double value) => new(value, Spread.Of(value));
}
