using System.CommandLine;
using System.CommandLine.Help;

namespace Harness.CommandLine;

/// <summary>
/// The command-line grammar every tool shares (tank, lab, crash), on System.CommandLine: each command
/// declares its typed, described options once, and help, parsing and errors all come from that
/// declaration. Bad input of any kind (an unknown option, a missing or malformed value, a bad config)
/// prints <c>program: error: …</c> and exits 2, as the scripts expect; a command's own exit codes
/// (the autostop codes 21–23, 130 when interrupted) pass through unchanged.
/// </summary>
public static class Cli
{
    public const int InputError = 2;

    /// <summary>
    /// Parses without running anything. Response files are off: a value starting with <c>@</c>
    /// (a note, a fault command) is taken verbatim.
    /// </summary>
    public static ParseResult Parse(Command root, IReadOnlyList<string> args) =>
        root.Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });

    /// <summary>
    /// Runs a command tree: no arguments is a usage error
    /// that shows the help, a parse error or bad input (<see cref="InputException"/>) prints
    /// "<paramref name="program"/>: error: …" and is exit code 2.
    /// </summary>
    public static int Run(Command root, string program, IReadOnlyList<string> args, TextWriter output, TextWriter error)
    {
        if (args.Count == 0)
        {
            // A bare command is a usage error that shows what there is.
            Run(root, program, ["--help"], error, error);
            return InputError;
        }
        var parse = Parse(root, args);
        if (parse.Errors.Count > 0)
        {
            foreach (var e in parse.Errors) error.WriteLine($"{program}: error: {e.Message}");
            error.WriteLine($"{program}: see '{CommandPath(parse.CommandResult.Command)} --help'");
            return InputError;
        }
        try
        {
            // Exceptions propagate (a crash stays a crash, not exit code 1), and System.CommandLine
            // does not take over Ctrl+C/SIGTERM: run and serve handle those themselves.
            return parse.Invoke(new InvocationConfiguration
            {
                Output = output,
                Error = error,
                EnableDefaultExceptionHandler = false,
                ProcessTerminationTimeout = null,
            });
        }
        catch (InputException e)
        {
            error.WriteLine($"{program}: error: {e.Message}");
            return InputError;
        }
    }

    private static string CommandPath(Command command) =>
        command.Parents.OfType<Command>().FirstOrDefault() is { } parent ? $"{CommandPath(parent)} {command.Name}" : command.Name;
}
