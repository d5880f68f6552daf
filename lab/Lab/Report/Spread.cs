namespace Lab.Report;

/// <summary>The lowest and highest of a cell's repeated values.</summary>
public sealed record Spread(double Min, double Max);
