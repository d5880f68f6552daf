using System.CommandLine;
using System.CommandLine.Help;
using System.Text.RegularExpressions;
using Tank.Commands;

namespace Tank.Tests.Commands;

/// <summary>
/// tank/README.md's "CLI contract" table is hand-written (it carries prose the help does not), so
/// it is checked against the parser that --help is generated from: the same commands, every
/// option in the row of its command and no other, <c>[--x]</c> exactly for optional ones, and one
/// <c>&lt;placeholder&gt;</c> per positional argument.
/// </summary>
public sealed partial class ReadmeUsageTests
{
    [GeneratedRegex(@"^\| `\$T (?<command>[a-z]+)(?<usage>.*?)` \|")]
    private static partial Regex ContractRow();

    [GeneratedRegex(@"--[a-z][a-z0-9-]*")]
    private static partial Regex OptionName();

    private sealed record UsageOption(string Name, bool Optional);

    private static Dictionary<string, string> ReadmeRows()
    {
        var readme = File.ReadAllLines(Path.Combine(TankDir(), "README.md"));
        var start = Array.FindIndex(readme, l => l.StartsWith("## CLI contract", StringComparison.Ordinal));
        Assert.True(start >= 0, "tank/README.md has no '## CLI contract' section");
        var rows = new Dictionary<string, string>();
        foreach (var line in readme.Skip(start + 1).TakeWhile(l => !l.StartsWith("## ", StringComparison.Ordinal)))
        {
            var match = ContractRow().Match(line);
            if (match.Success) Assert.True(rows.TryAdd(match.Groups["command"].Value, match.Groups["usage"].Value), $"two rows for {match.Groups["command"].Value}");
        }
        return rows;
    }

    // An option is optional when it stands inside [...] in the usage.
    private static List<UsageOption> ReadmeOptions(string usage)
    {
        var options = new List<UsageOption>();
        var depth = 0;
        for (var i = 0; i < usage.Length; i++)
        {
            if (usage[i] == '[') depth++;
            else if (usage[i] == ']') depth--;
            else if (OptionName().Match(usage, i) is { Success: true } match && match.Index == i)
            {
                options.Add(new UsageOption(match.Value, depth > 0));
                i += match.Length - 1;
            }
        }
        return options;
    }

    private static string TankDir()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "tank", "README.md"))) return Path.Combine(dir.FullName, "tank");
        throw new InvalidOperationException("tank/README.md not found above the test binaries");
    }

    private static IEnumerable<Option> ParserOptions(Command command) => command.Options.Where(o => o is not HelpOption);

    [Fact]
    public void TheReadmeHasARowForEveryCommandAndNoOther() =>
        Assert.Equal(Cli.Build().Subcommands.Select(c => c.Name).Order(), ReadmeRows().Keys.Order());

    [Fact]
    public void EveryRowListsExactlyItsCommandsOptionsWithTheRightBrackets()
    {
        var rows = ReadmeRows();
        var problems = new List<string>();
        foreach (var command in Cli.Build().Subcommands)
        {
            var readme = ReadmeOptions(rows[command.Name]).DistinctBy(o => o.Name).ToDictionary(o => o.Name, o => o.Optional);
            var parser = ParserOptions(command).ToDictionary(o => o.Name, o => !o.Required);
            problems.AddRange(parser.Keys.Except(readme.Keys).Select(name => $"tank {command.Name} {name} is missing from the README"));
            problems.AddRange(readme.Keys.Except(parser.Keys).Select(name => $"tank {command.Name} {name} is in the README but not in the parser"));
            problems.AddRange(parser.Where(p => readme.TryGetValue(p.Key, out var optional) && optional != p.Value)
                .Select(p => $"tank {command.Name} {p.Key} is {(p.Value ? "optional" : "required")}: {(p.Value ? "[--x]" : "no brackets")} in the README"));
        }
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    [Fact]
    public void EveryRowShowsThePositionalArguments()
    {
        var rows = ReadmeRows();
        foreach (var command in Cli.Build().Subcommands)
        {
            var placeholders = Regex.Matches(rows[command.Name], @"^\s*((<[^>]+>)\s*)*").Single().Groups[2].Captures.Count;
            Assert.True(command.Arguments.Count == placeholders, $"tank {command.Name}: {command.Arguments.Count} arguments, the README shows {placeholders}");
        }
    }
}
