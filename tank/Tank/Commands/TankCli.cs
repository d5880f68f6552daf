using System.CommandLine;
using System.CommandLine.Help;
using Harness.CommandLine;

namespace Tank.Commands;

/// <summary>The runner's command tree: ammo, run and serve, in Yandex.Tank 2.0.14's formats.</summary>
public static class TankCli
{
    /// <summary>A fresh command tree: each parse gets its own, so parallel callers (the tests) share no parser state.</summary>
    public static Command Build()
    {
        var root = new Command("tank", "Ammo and the local load runner, in Yandex.Tank 2.0.14's formats (see tank/README.md).")
        {
            new AmmoCommand(),
            new RunCommand(),
            new ServeCommand(),
        };
        root.Options.Add(new HelpOption()); // recursive: every command answers --help
        return root;
    }

    public static ParseResult Parse(IReadOnlyList<string> args) => Cli.Parse(Build(), args);

    public static int Run(IReadOnlyList<string> args) => Run(args, Console.Out, Console.Error);

    /// <summary>Parses and runs; help and parse errors go to the given writers (the tests capture them).</summary>
    public static int Run(IReadOnlyList<string> args, TextWriter output, TextWriter error) => Cli.Run(Build(), "tank", args, output, error);
}
