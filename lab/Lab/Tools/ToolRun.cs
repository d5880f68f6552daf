namespace Lab.Tools;

/// <summary>What one run of an external program printed (stdout and stderr, in arrival order) and its exit code (137: killed at its deadline).</summary>
public sealed record ToolRun(int ExitCode, string Output)
{
    public const int Killed = 137;
}
