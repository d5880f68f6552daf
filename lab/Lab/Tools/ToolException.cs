namespace Lab.Tools;

/// <summary>
/// A tool run that cannot go on (the service or the program under it is missing or misbehaves):
/// printed as <c>tank: error: …</c> with exit code 1, unlike bad input (exit code 2).
/// </summary>
public sealed class ToolException(string message) : Exception(message);
