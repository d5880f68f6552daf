namespace Harness.Processes;

/// <summary>A finished child process: its exit code and what it printed.</summary>
public sealed record ProcessResult(int ExitCode, string Output, string Error);
