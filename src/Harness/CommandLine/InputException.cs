namespace Harness.CommandLine;

/// <summary>
/// Bad user input (a config, an ammo file, an argument). Carries the file and position so the
/// message points the user straight at the offending byte; the CLI maps it to exit code 2.
/// </summary>
public sealed class InputException : Exception
{
    public InputException(string message) : base(message) { }

    public InputException(string file, string position, string message)
        : base($"{file}: {position}: {message}") { }
}
