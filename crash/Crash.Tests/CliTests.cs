using Crash.Commands;
using Tank.Commands;

namespace Crash.Tests;

/// <summary>The crash command line: what script/crashtest passes parses, and bad input is exit code 2.</summary>
public sealed class CliTests
{
    // One run as `crash run` takes it (script/crashtest runs `crash matrix`, which builds the same options).
    private static readonly string[] OneRun =
        ["run", "--url", "http://127.0.0.1:18085", "--storage", "postgres-redis-cache", "--kind", "item", "--rate", "200", "--seconds", "20",
        "--fault-at", "6", "--fault-cmd", "script/services powercut postgres",
        "--items", "1000-1999", "--locations", "20000", "--recover-seconds", "60", "--label", "postgres-redis-cache item db-kill",
        "--truth-storage", "postgres", "--out", "reports/crash-20260101T000000Z/postgres-redis-cache-item-db-kill.json"];

    [Fact]
    public void ARunsOptionsComeThroughTyped()
    {
        var parse = CrashCli.Parse(OneRun);
        Assert.Empty(parse.Errors);
        var options = ((CrashCommand)parse.CommandResult.Command).CrashOptionsOf(parse);
        Assert.Equal((new KeyRange(1000, 1999), 20_000L, 60.0, "postgres"), (options.Items, options.Locations, options.RecoverSeconds, options.TruthStorage));
    }

    [Fact]
    public void NegativeNumbersAreValuesNotOptions()
    {
        var error = new StringWriter();
        Assert.Equal(CrashCli.InputError, CrashCli.Run(["run", "--url", "http://h:1", "--storage", "s", "--kind", "item", "--rate", "1", "--seconds", "2",
            "--fault-at", "-1", "--fault-cmd", "true", "--out", "x"], TextWriter.Null, error));
        Assert.Contains("--fault-at: '-1' must be at least 0", error.ToString());
    }

    [Fact]
    public void AnUnknownOptionIsAnErrorNamingIt()
    {
        var error = new StringWriter();
        Assert.Equal(CrashCli.InputError, CrashCli.Run(["run", "--tiemout", "3s"], TextWriter.Null, error));
        Assert.Contains("Unrecognized command or argument '--tiemout'", error.ToString());
        Assert.Contains("see 'crash run --help'", error.ToString());
    }

    [Fact]
    public void AClusterRunPlansEveryShardableKeyValueArchitectureWithEachNodeFault()
    {
        var output = new StringWriter();
        var catalogue = Path.Combine(AppContext.BaseDirectory, "Fixtures", "catalogue.json");
        Assert.Equal(0, CrashCli.Run(["cluster", "--root", ".", "--port", "19200", "--catalogue", catalogue, "--out", "x",
            "--storage", "tarantool-memtx", "--plan"], output, TextWriter.Null));
        Assert.Equal([
            "tarantool-memtx kv-cluster node-kill\tnode1\tnothing\t23 s (extended from --seconds 20 s: fault at 6 s + --stop-seconds 5 s + the service's restart budget 4 s " +
            "+ 3 s back under the SLO + 5 s margin = 23 s)\t200/s (default)",
            "tarantool-memtx kv-cluster node-pause\tnode1\tnothing\t20 s (--seconds 20 s; it needs fault at 6 s + --stop-seconds 5 s + 3 s back under the SLO + 5 s margin = 19 s)\t200/s (default)",
        ], output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }

    [Fact]
    public void AClusterRunRefusesAnArchitectureThatCannotBeSharded()
    {
        var error = new StringWriter();
        var catalogue = Path.Combine(AppContext.BaseDirectory, "Fixtures", "catalogue.json");
        Assert.Equal(CrashCli.InputError, CrashCli.Run(["cluster", "--root", "s", "--port", "19200", "--catalogue", catalogue, "--out", "x",
            "--storage", "redis-cluster"], TextWriter.Null, error));
        Assert.Contains("'redis-cluster' is not a shardable key-value architecture", error.ToString());
    }
}
