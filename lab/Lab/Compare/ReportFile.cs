namespace Lab.Compare;

/// <summary>A report's summary.json as compare, history and verdict read it.</summary>
public sealed record ReportFile(string Path, double SloMs, string? GeneratedAt, System.Text.Json.JsonElement? Environment, IReadOnlyList<CellFigures> Cells);
