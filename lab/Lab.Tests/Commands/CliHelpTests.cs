using System.CommandLine;
using System.CommandLine.Help;
using Tank.Commands;

namespace Tank.Tests.Commands;

/// <summary>Every command answers --help with exit code 0 and lists all its options, each described.</summary>
public sealed class CliHelpTests
{
    public static TheoryData<string> CommandNames() => [.. Cli.Build().Subcommands.Select(c => c.Name)];

    [Fact]
    public void EveryCommandOfTheContractExists() =>
        Assert.Equal(["ammo", "run", "capacity", "report", "env", "serve", "siege", "ab", "compare", "history", "verdict", "bench", "cluster"], Cli.Build().Subcommands.Select(c => c.Name));

    [Theory]
    [MemberData(nameof(CommandNames))]
    public void HelpExitsZeroAndListsEveryOption(string name)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        Assert.Equal(0, Cli.Run([name, "--help"], output, error));
        Assert.Equal("", error.ToString());
        var help = output.ToString();
        Assert.Contains($"tank {name}", help);
        var command = Cli.Build().Subcommands.Single(c => c.Name == name);
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
        var output = new StringWriter();
        Assert.Equal(0, Cli.Run(["--help"], output, TextWriter.Null));
        foreach (var name in CommandNames()) Assert.Contains($"  {name}", output.ToString());
    }

    [Fact]
    public void NoCommandIsAUsageErrorThatShowsTheCommands()
    {
        var error = new StringWriter();
        Assert.Equal(Cli.InputError, Cli.Run([], TextWriter.Null, error));
        Assert.Contains("serve", error.ToString());
    }
}
