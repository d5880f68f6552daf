using System.CommandLine;
using System.CommandLine.Help;
using Harness.CommandLine;

namespace Lab.Commands;

/// <summary>
/// The lab's command tree: the bench and its capacity search, the report, compare, history and verdict,
/// the key-value cluster, and the original studies' siege and ab replays. Loads are run by the tank
/// runner in-process.
/// </summary>
public static class LabCli
{
    /// <summary>A fresh command tree: each parse gets its own, so parallel callers (the tests) share no parser state.</summary>
    public static Command Build()
    {
        var root = new Command("lab", "Measures and compares the architectures: bench, report, compare, verdict, cluster, the original studies' siege and ab (see docs/OPERATIONS.md).")
        {
            new BenchCommand(),
            new CapacityCommand(),
            new ReportCommand(),
            new EnvCommand(),
            new CompareCommand(),
            new HistoryCommand(),
            new VerdictCommand(),
            new CheckCommand(),
            new ClusterCommand(),
            new SiegeCommand(),
            new AbCommand(),
        };
        root.Options.Add(new HelpOption()); // recursive: every command answers --help
        return root;
    }

    public static ParseResult Parse(IReadOnlyList<string> args) => Cli.Parse(Build(), args);

    public static int Run(IReadOnlyList<string> args) => Run(args, Console.Out, Console.Error);

    /// <summary>Parses and runs; help and parse errors go to the given writers (the tests capture them).</summary>
    public static int Run(IReadOnlyList<string> args, TextWriter output, TextWriter error) => Cli.Run(Build(), "lab", args, output, error);
}
