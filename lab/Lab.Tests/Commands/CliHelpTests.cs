using System.CommandLine;
using System.CommandLine.Help;
using Tank.Commands;
using Harness.CommandLine;

namespace Lab.Tests.Commands;

/// <summary>Every command answers --help with exit code 0 and lists all its options, each described.</summary>
public sealed class CliHelpTests
{
    public static TheoryData<string> CommandNames() => [.. Tools.Commands.Select(c => c.Name)];

    [Fact]
    public void EveryCommandOfTheContractExists()
    {
        Assert.Equal(["ammo", "run", "serve"], Tools.Build("tank").Subcommands.Select(c => c.Name));
        Assert.Equal(["bench", "capacity", "report", "env", "compare", "history", "verdict", "check", "cluster", "siege", "ab"], Tools.Build("lab").Subcommands.Select(c => c.Name));
    }

    [Theory]
    [MemberData(nameof(CommandNames))]
    public void HelpExitsZeroAndListsEveryOption(string name)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        Assert.Equal(0, Tools.Run([name, "--help"], output, error));
        Assert.Equal("", error.ToString());
        var help = output.ToString();
        Assert.Contains($"{Tools.Of(name)} {name}", help);
        var command = Tools.Commands.Single(c => c.Name == name);
        Assert.False(string.IsNullOrWhiteSpace(command.Description));
        foreach (var option in command.Options.Where(o => o is not HelpOption))
        {
            Assert.Contains(option.Name, help);
            Assert.False(string.IsNullOrWhiteSpace(option.Description), $"{name} {option.Name} has no description");
            Assert.Contains(option.Description!, help);
        }
        foreach (var argument in command.Arguments)
        {
            Assert.Contains($"<{argument.Name}>", help);
            Assert.False(string.IsNullOrWhiteSpace(argument.Description), $"{name} <{argument.Name}> has no description");
        }
    }

    [Fact]
    public void TopLevelHelpListsTheCommands()
    {
        foreach (var tool in Tools.Names)
        {
            var output = new StringWriter();
            Assert.Equal(0, Harness.CommandLine.Cli.Run(Tools.Build(tool), tool, ["--help"], output, TextWriter.Null));
            foreach (var command in Tools.Build(tool).Subcommands) Assert.Contains($"  {command.Name}", output.ToString());
        }
    }

    [Fact]
    public void NoCommandIsAUsageErrorThatShowsTheCommands()
    {
        var error = new StringWriter();
        Assert.Equal(Cli.InputError, Tank.Commands.TankCli.Run([], TextWriter.Null, error));
        Assert.Contains("serve", error.ToString());
        error = new StringWriter();
        Assert.Equal(Cli.InputError, Lab.Commands.LabCli.Run([], TextWriter.Null, error));
        Assert.Contains("bench", error.ToString());
    }
}
