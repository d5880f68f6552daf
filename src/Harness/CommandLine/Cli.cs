using System.CommandLine;
using System.CommandLine.Help;

namespace Tank.Commands;

/// <summary>
/// The tank command line on System.CommandLine: each command declares its typed, described
/// options once, and help, parsing and errors all come from that declaration. Bad input of any
/// kind (an unknown option, a missing or malformed value, a bad config) prints
/// <c>tank: error: …</c> and exits 2, as script/bench expects; a command's own exit codes (the
/// autostop codes 21–23, 130 when interrupted) pass through unchanged.
/// </summary>
public static class Cli
{
    public const int InputError = 2;

    /// <summary>
    /// A fresh command tree. Each parse gets its own, so parallel callers (the tests) share no
    /// parser state; building it costs microseconds.
    /// </summary>
    public static Command Build()
    {
        var root = new Command("tank", "Ammo, the local load runner and the comparison report, in Yandex.Tank 2.0.14's formats (see tank/README.md).")
        {
            new AmmoCommand(),
            new RunCommand(),
            new CapacityCommand(),
            new ReportCommand(),
            new EnvCommand(),
            new ServeCommand(),
            new SiegeCommand(),
            new AbCommand(),
            new CompareCommand(),
            new HistoryCommand(),
            new VerdictCommand(),
            new BenchCommand(),
            new ClusterCommand(),
        };
        root.Options.Add(new HelpOption()); // recursive: every command answers --help
        return root;
    }

    /// <summary>
    /// Parses without running anything. Response files are off: a value starting with <c>@</c>
    /// (a note, a fault command) is taken verbatim, as the hand-written parser before did.
    /// </summary>
    public static ParseResult Parse(IReadOnlyList<string> args) =>
        Build().Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });

    public static int Run(string[] args) => Run(args, Console.Out, Console.Error);

    /// <summary>Parses and runs; help and parse errors go to the given writers (the tests capture them).</summary>
    public static int Run(IReadOnlyList<string> args, TextWriter output, TextWriter error) => Run(Build(), "tank", args, output, error);

    /// <summary>
    /// Runs a command tree the way tank does (the crash tester's too): no arguments is a usage error
    /// that shows the help, a parse error or bad input (<see cref="TankInputException"/>) prints
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
        var parse = root.Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });
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
        catch (TankInputException e)
        {
            error.WriteLine($"{program}: error: {e.Message}");
            return InputError;
        }
    }

    private static string CommandPath(Command command) =>
        command.Parents.OfType<Command>().FirstOrDefault() is { } parent ? $"{CommandPath(parent)} {command.Name}" : command.Name;
}
