using Harness.CommandLine;
using System.CommandLine;
using System.CommandLine.Help;
using Lab.Commands;


namespace Crash.Commands;

/// <summary>
/// The crash command line, on System.CommandLine like tank's: <c>crash run</c> is one run (one
/// architecture, kind and fault), <c>crash matrix</c> every run the catalogue calls for. Bad input
/// prints <c>crash: error: …</c> and exits 2; a command's own exit codes pass through.
/// </summary>
public static class CrashCli
{
    public const int InputError = 2;

    public static Command Build()
    {
        var root = new Command("crash", "The crash-durability test: what each storage architecture loses when a server or the service fails mid-write (see crash/README.md).")
        {
            new CrashCommand(),
            new MatrixCommand(),
            new ClusterCommand(),
        };
        root.Options.Add(new HelpOption());
        return root;
    }

    /// <summary>Parses without running anything; a value starting with <c>@</c> (a fault command) is taken verbatim.</summary>
    public static ParseResult Parse(IReadOnlyList<string> args) =>
        Build().Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });

    public static int Run(string[] args) => Run(args, Console.Out, Console.Error);

    /// <summary>Parses and runs as tank does (Cli.Run): "crash: error: …" and exit code 2 on bad input.</summary>
    public static int Run(IReadOnlyList<string> args, TextWriter output, TextWriter error) =>
        Cli.Run(Build(), "crash", args, output, error);
}
