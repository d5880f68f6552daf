namespace Lab.Tools;

/// <summary>One architecture's read and write runs: ab's exit code and what it printed, for each.</summary>
public sealed record AbRow(string Storage, ToolRun Read, ToolRun Write);
