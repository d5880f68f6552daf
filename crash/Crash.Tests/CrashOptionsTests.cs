using Crash.Commands;

using Tank.Commands;
using Crash;
using Harness.CommandLine;

namespace Crash.Tests;

public sealed class CrashOptionsTests
{
    private static readonly Dictionary<string, string> Valid = new()
    {
        ["url"] = "http://127.0.0.1:18080/",
        ["storage"] = "postgres",
        ["kind"] = "item",
        ["rate"] = "200",
        ["seconds"] = "20",
        ["fault-at"] = "8",
        ["fault-cmd"] = "true",
        ["out"] = "result.json",
    };

    private static string[] Args(Dictionary<string, string?> changes)
    {
        var options = new Dictionary<string, string?>(Valid.Select(p => KeyValuePair.Create(p.Key, (string?)p.Value)));
        foreach (var (name, value) in changes) options[name] = value;
        return options.Where(p => p.Value is not null).SelectMany(p => new[] { "--" + p.Key, p.Value! }).ToArray();
    }

    // Parse only: the command line's own errors, then the options checked together; nothing is sent.
    private static CrashOptions Parse(params (string Name, string? Value)[] changes)
    {
        var parse = CrashCli.Parse(["run", .. Args(changes.ToDictionary(c => c.Name, c => c.Value))]);
        if (parse.Errors.Count > 0) throw new InputException(parse.Errors[0].Message);
        return ((CrashCommand)parse.CommandResult.Command).CrashOptionsOf(parse);
    }

    private static string Error(params (string Name, string? Value)[] changes) =>
        Assert.Throws<InputException>(() => Parse(changes)).Message;

    [Fact]
    public void DefaultsAreFilledIn()
    {
        var options = Parse();
        Assert.Equal("http://127.0.0.1:18080", options.Url);
        Assert.Equal(CrashKind.Item, options.Kind);
        Assert.Equal(new KeyRange(1, 2000), options.Items);
        Assert.Equal(3_000, options.TimeoutMs);
        Assert.Equal(60, options.RecoverSeconds);
        Assert.Equal("postgres item", options.Label);
        Assert.Equal(4_000, options.PlannedWrites);
    }

    [Fact]
    public void OptionalValuesAreRead()
    {
        var options = Parse(("items", "5-50"), ("timeout", "500ms"), ("recover-seconds", "7.5"), ("label", "pg db-kill"), ("kind", "author"));
        Assert.Equal(new KeyRange(5, 50), options.Items);
        Assert.Equal(500, options.TimeoutMs);
        Assert.Equal(7.5, options.RecoverSeconds);
        Assert.Equal("pg db-kill", options.Label);
        Assert.Equal(CrashKind.Author, options.Kind);
        Assert.Equal(2_000, Parse(("timeout", "2s")).TimeoutMs);
    }

    [Theory]
    [InlineData("0-5")]
    [InlineData("5-1")]
    [InlineData("5")]
    [InlineData("a-b")]
    [InlineData("1-2-3")]
    [InlineData("-1-5")]
    public void BadItemRangesNameTheOption(string items) => Assert.StartsWith("--items:", Error(("items", items)));

    [Theory]
    [InlineData("20")]
    [InlineData("25")]
    [InlineData("-1")]
    public void AFaultOutsideTheRunNamesTheOption(string faultAt) => Assert.StartsWith($"--fault-at: '{faultAt}' must be", Error(("fault-at", faultAt)));

    [Theory]
    [InlineData("rate", "0", "--rate: '0' must be above zero")]
    [InlineData("rate", "-5", "--rate: '-5' must be above zero")]
    [InlineData("rate", "fast", "--rate: 'fast' is not a number")]
    [InlineData("rate", "NaN", "--rate: 'NaN' is not a number")]
    [InlineData("seconds", "0", "--seconds: '0' must be above zero")]
    [InlineData("timeout", "3x", "--timeout:")]
    [InlineData("timeout", "0s", "--timeout:")]
    [InlineData("recover-seconds", "0", "--recover-seconds: '0' must be above zero")]
    [InlineData("kind", "book", "--kind: 'book' is not one of author, item")]
    [InlineData("url", "127.0.0.1:8080", "--url: '127.0.0.1:8080'")]
    [InlineData("url", null, "Option '--url' is required")]
    [InlineData("fault-cmd", null, "Option '--fault-cmd' is required")]
    [InlineData("fault-cmd", "", "--fault-cmd: '' is empty")]
    [InlineData("out", null, "Option '--out' is required")]
    [InlineData("fault-at", null, "Option '--fault-at' is required")]
    [InlineData("tiemout", "3s", "Unrecognized command or argument '--tiemout'")]
    public void BadInputNamesTheOption(string name, string? value, string message) => Assert.StartsWith(message, Error((name, value)));

    [Fact]
    public void TooManyItemWritesForUniqueSetsIsBadInput() =>
        Assert.StartsWith("--rate × --seconds must be at most", Error(("rate", "10000"), ("seconds", "11"), ("fault-at", "1")));

    [Fact]
    public void FewerLocationsAllowFewerItemWrites()
    {
        Assert.StartsWith("--rate × --seconds must be at most 2000 for --kind item with --locations 2000", Error(("rate", "300"), ("seconds", "7"), ("fault-at", "1"), ("locations", "2000")));
        Assert.StartsWith("--locations: '4' must be at least 5", Error(("locations", "4")));
    }

    [Fact]
    public void TheCliAnswersBadInputWithExitCode2BeforeSendingAnything()
    {
        var output = Path.Combine(Path.GetTempPath(), $"crash-{Guid.NewGuid():N}", "result.json");
        var error = new StringWriter();
        Assert.Equal(CrashCli.InputError, CrashCli.Run(["run", .. Args(new() { ["items"] = "9-3", ["out"] = output })], TextWriter.Null, error));
        Assert.Equal(CrashCli.InputError, CrashCli.Run(["run", .. Args(new() { ["fault-at"] = "30", ["out"] = output })], TextWriter.Null, error));
        Assert.Contains("crash: error: --items: '9-3' must be A-B", error.ToString());
        Assert.Contains("crash: error: --fault-at: '30' must be below --seconds (20)", error.ToString());
        Assert.False(Directory.Exists(Path.GetDirectoryName(output)));
    }
}
