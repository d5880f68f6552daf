using System.CommandLine;
using System.CommandLine.Help;
using System.Text.RegularExpressions;
using Tank.Commands;
using Harness.CommandLine;

namespace Lab.Tests.Commands;

/// <summary>
/// tank/README.md's and lab/README.md's "CLI contract" sections are hand-written (they carry prose the
/// help does not), so each is checked against the parser that --help is generated from: a table row and
/// a usage line for every command and no other, every option in its command's usage line and no other, <c>[--x]</c> exactly for optional ones, and one
/// <c>&lt;placeholder&gt;</c> per positional argument.
/// </summary>
public sealed partial class ReadmeUsageTests
{
    [GeneratedRegex(@"^\$[TL] (?<command>[a-z]+)(?<usage>.*)$")]
    private static partial Regex UsageLine();

    [GeneratedRegex(@"^\| `(?<command>[a-z]+)` \|")]
    private static partial Regex TableRow();

    [GeneratedRegex(@"--[a-z][a-z0-9-]*")]
    private static partial Regex OptionName();

    private sealed record UsageOption(string Name, bool Optional);

    // The "CLI contract" section: a table row per command, and a usage line per command in its code block.
    private static (Dictionary<string, string> Usage, List<string> TableRows) Contract(string tool)
    {
        var readme = File.ReadAllLines(Path.Combine(ToolDir(tool), "README.md"));
        var start = Array.FindIndex(readme, l => l.StartsWith("## CLI contract", StringComparison.Ordinal));
        Assert.True(start >= 0, $"{tool}/README.md has no '## CLI contract' section");
        var usage = new Dictionary<string, string>();
        var rows = new List<string>();
        foreach (var line in readme.Skip(start + 1).TakeWhile(l => !l.StartsWith("## ", StringComparison.Ordinal)))
        {
            if (UsageLine().Match(line) is { Success: true } u)
                Assert.True(usage.TryAdd(u.Groups["command"].Value, u.Groups["usage"].Value), $"two usage lines for {u.Groups["command"].Value}");
            if (TableRow().Match(line) is { Success: true } r) rows.Add(r.Groups["command"].Value);
        }
        return (usage, rows);
    }

    private static Dictionary<string, string> ReadmeRows(string tool) => Contract(tool).Usage;

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

    private static string ToolDir(string tool)
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, tool, "README.md"))) return Path.Combine(dir.FullName, tool);
        throw new InvalidOperationException($"{tool}/README.md not found above the test binaries");
    }

    public static TheoryData<string> ToolNames() => [.. Tools.Names];

    private static IEnumerable<Option> ParserOptions(Command command) => command.Options.Where(o => o is not HelpOption);

    [Theory]
    [MemberData(nameof(ToolNames))]
    public void TheReadmeHasARowAndAUsageLineForEveryCommandAndNoOther(string tool)
    {
        var commands = Tools.Build(tool).Subcommands.Select(c => c.Name).Order().ToList();
        var (usage, rows) = Contract(tool);
        Assert.Equal(commands, usage.Keys.Order());
        Assert.Equal(commands, rows.Order());
    }

    [Theory]
    [MemberData(nameof(ToolNames))]
    public void EveryRowListsExactlyItsCommandsOptionsWithTheRightBrackets(string tool)
    {
        var rows = ReadmeRows(tool);
        var problems = new List<string>();
        foreach (var command in Tools.Build(tool).Subcommands)
        {
            var readme = ReadmeOptions(rows[command.Name]).DistinctBy(o => o.Name).ToDictionary(o => o.Name, o => o.Optional);
            var parser = ParserOptions(command).ToDictionary(o => o.Name, o => !o.Required);
            problems.AddRange(parser.Keys.Except(readme.Keys).Select(name => $"{tool} {command.Name} {name} is missing from the README"));
            problems.AddRange(readme.Keys.Except(parser.Keys).Select(name => $"{tool} {command.Name} {name} is in the README but not in the parser"));
            problems.AddRange(parser.Where(p => readme.TryGetValue(p.Key, out var optional) && optional != p.Value)
                .Select(p => $"{tool} {command.Name} {p.Key} is {(p.Value ? "optional" : "required")}: {(p.Value ? "[--x]" : "no brackets")} in the README"));
        }
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    [Theory]
    [MemberData(nameof(ToolNames))]
    public void EveryRowShowsThePositionalArguments(string tool)
    {
        var rows = ReadmeRows(tool);
        foreach (var command in Tools.Build(tool).Subcommands)
        {
            var placeholders = Regex.Matches(rows[command.Name], @"^\s*((<[^>]+>)\s*)*").Single().Groups[2].Captures.Count;
            Assert.True(command.Arguments.Count == placeholders, $"{tool} {command.Name}: {command.Arguments.Count} arguments, the README shows {placeholders}");
        }
    }
}
