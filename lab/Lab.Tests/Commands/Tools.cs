using System.CommandLine;
using Lab.Commands;
using Tank.Commands;

namespace Lab.Tests.Commands;

/// <summary>
/// The two command lines a user types, tank (the runner) and lab (everything around it), as one set:
/// a command name belongs to exactly one of them.
/// </summary>
public static class Tools
{
    public static readonly string[] Names = ["tank", "lab"];

    public static Command Build(string tool) => tool == "tank" ? TankCli.Build() : LabCli.Build();

    /// <summary>The tool a command belongs to.</summary>
    public static string Of(string command) => TankCli.Build().Subcommands.Any(c => c.Name == command) ? "tank" : "lab";

    public static IEnumerable<Command> Commands => Names.SelectMany(t => Build(t).Subcommands);

    public static int Run(IReadOnlyList<string> args, TextWriter output, TextWriter error) =>
        Of(args[0]) == "tank" ? TankCli.Run(args, output, error) : LabCli.Run(args, output, error);

    public static int Run(IReadOnlyList<string> args) => Run(args, Console.Out, Console.Error);

    public static ParseResult Parse(IReadOnlyList<string> args) => Of(args[0]) == "tank" ? TankCli.Parse(args) : LabCli.Parse(args);
}
