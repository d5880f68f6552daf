using Tank.Commands;
using Harness.CommandLine;

namespace Lab.Tests.Commands;

/// <summary>How the tank and lab command lines read options and reports bad ones (exit code 2, the option and value named).</summary>
public sealed class CliParsingTests
{
    private static (int Code, string Error) Run(params string[] args)
    {
        var error = new StringWriter();
        var code = Tools.Run(args, TextWriter.Null, error);
        return (code, error.ToString());
    }

    [Fact]
    public void QuietTakesNoValueSoTheConfigAfterItIsTheArgument()
    {
        var parse = Tools.Parse(["run", "--quiet", "load.yaml"]);
        Assert.Empty(parse.Errors);
        Assert.Equal("load.yaml", parse.GetValue<string>("load.yaml"));
        Assert.True(parse.GetValue<bool>("--quiet"));
    }

    [Fact]
    public void ARunWithQuietBeforeItsConfigReadsThatConfig()
    {
        // Before System.CommandLine, load.yaml became --quiet's value and run had no config.
        var (code, error) = Run("run", "--quiet", "no-such-dir/load.yaml");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("tank: error: no-such-dir/load.yaml: file: config not found", error);
    }

    [Theory]
    [InlineData("ammo")]
    [InlineData("run")]
    [InlineData("report")]
    [InlineData("env")]
    [InlineData("serve")]
    public void AnUnknownOptionIsAnErrorNamingIt(string command)
    {
        var (code, error) = Run(command, "x", "--tiemout", "3s");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("Unrecognized command or argument '--tiemout'", error);
        Assert.Contains($"see '{Tools.Of(command)} {command} --help'", error);
    }

    [Theory]
    [InlineData("--count", "ten", "--count: 'ten' is not a whole number")]
    [InlineData("--count", "1.5", "--count: '1.5' is not a whole number")]
    [InlineData("--count", "0", "--count: '0' must be above zero")]
    [InlineData("--seed", "x", "--seed: 'x' is not a whole number")]
    [InlineData("--items", "-3", "--items: '-3' must be above zero")]
    [InlineData("--author-ids", "10-1", "--author-ids: '10-1' must be A-B with 1 <= A <= B")]
    [InlineData("--format", "json", "--format: 'json' is not one of phantom, uri, uripost")]
    [InlineData("--scenario", "author-delete", "--scenario: 'author-delete' is not one of author-write")]
    [InlineData("--host", "h:port", "--host: address 'h:port': 'port' is not a port")]
    public void AMalformedAmmoValueNamesTheOptionAndTheValue(string option, string value, string message)
    {
        var args = new Dictionary<string, string> { ["--scenario"] = "author-read", ["--storage"] = "postgres", ["--out"] = "no-such-dir/a.ammo", [option] = value };
        var (code, error) = Run(["ammo", .. args.SelectMany(p => new[] { p.Key, p.Value })]);
        Assert.Equal(Cli.InputError, code);
        Assert.Contains($"tank: error: {message}", error);
    }

    [Theory]
    [InlineData("--instances", "many", "--instances: 'many' is not a whole number")]
    [InlineData("--instances", "0", "--instances: '0' must be above zero")]
    [InlineData("--timeout", "0s", "--timeout: timeout '0s'")]
    [InlineData("--timeout", "1.5s", "--timeout: timeout '1.5s'")]
    [InlineData("--schedule", "const(10, 500ms)", "--schedule 'const(10, 500ms)': column 1: '500ms' is not a duration")]
    [InlineData("--warmup", "line(1, 10, 5s), const(10, 1s)", "--warmup 'line(1, 10, 5s), const(10, 1s)'")]
    [InlineData("--load-type", "closed", "--load-type: 'closed' is not one of rps, instances")]
    [InlineData("--ammo-type", "access", "--ammo-type: 'access' is not one of phantom, uri, uripost")]
    [InlineData("--cpu", "service", "--cpu takes name=pid, got 'service'")]
    [InlineData("--address", "[::1", "--address: address '[::1': missing ']'")]
    public void AMalformedRunValueNamesTheOptionAndTheValue(string option, string value, string message)
    {
        var (code, error) = Run("run", "load.yaml", option, value);
        Assert.Equal(Cli.InputError, code);
        Assert.Contains($"tank: error: {message}", error);
    }

    [Theory]
    [InlineData("--timeout", "10", 10)]
    [InlineData("--timeout", "1500ms", 1500)]
    [InlineData("--timeout", "3s", 3000)]
    [InlineData("--instances", "64", 64)]
    public void RunValuesAreTyped(string option, string value, long expected) =>
        Assert.Equal(expected, Tools.Parse(["run", "load.yaml", option, value]).GetValue<long?>(option));

    [Fact]
    public void AMissingValueIsAnErrorNamingTheOption()
    {
        var (code, error) = Run("run", "load.yaml", "--schedule");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("--schedule", error);
    }

    [Fact]
    public void AMissingRequiredOptionIsAnErrorNamingIt()
    {
        var (code, error) = Run("ammo", "--scenario", "author-read", "--out", "no-such-dir/a.ammo");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("tank: error: Option '--storage' is required.", error);
    }

    [Theory]
    [InlineData("run")]
    [InlineData("capacity")]
    [InlineData("report")]
    [InlineData("env")]
    public void AMissingDirectoryOrConfigIsAnError(string command)
    {
        var (code, error) = Run(command);
        Assert.Equal(Cli.InputError, code);
        Assert.Contains($"missing for command: '{command}'", error);
    }

    [Fact]
    public void ASecondPositionalArgumentIsAnError()
    {
        var (code, error) = Run("report", "a", "b");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("Unrecognized command or argument 'b'", error);
    }

    [Fact]
    public void AnOptionGivenTwiceIsAnErrorUnlessRepeatable()
    {
        Assert.Contains("'--out' expects a single argument", Run("run", "load.yaml", "--out", "a", "--out", "b").Error);
        var parse = Tools.Parse(["run", "load.yaml", "--cpu", "service=1", "--cpu", "postgresql=2"]);
        Assert.Empty(parse.Errors);
        Assert.Equal(["service", "postgresql"], parse.GetValue<Tank.Cpu.CpuTarget[]>("--cpu")!.Select(c => c.Name));
    }

    [Fact]
    public void AnUnknownCommandIsAnError()
    {
        var (code, error) = Run("shoot", "load.yaml");
        Assert.Equal(Cli.InputError, code);
        Assert.Contains("'shoot'", error);
    }

    [Theory]
    [InlineData("--note", "@notes.txt")]
    [InlineData("--note", "--not-an-option")]
    [InlineData("--note", "-1")]
    [InlineData("--durability", "postgres=")]
    public void ValuesAreTakenVerbatim(string option, string value)
    {
        var parse = Tools.Parse(["env", "dir", option, value]);
        Assert.Empty(parse.Errors);
        Assert.Contains(parse.Tokens, t => t.Value == value);
    }

    [Fact]
    public void DuplicateEnvNamesAreBadInput() =>
        Assert.Contains("lab: error: --server: 'postgres' is given twice",
            Run("env", Path.Combine(Path.GetTempPath(), $"tank-env-{Guid.NewGuid():N}"), "--server", "postgres=15", "--server", "postgres=16").Error);
}
