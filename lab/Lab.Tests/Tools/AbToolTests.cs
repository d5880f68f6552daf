using Tank.Commands;
using Lab.Tools;
using Harness.CommandLine;
using Lab.Commands;
using Harness.Catalogue;
using IntegrationService.Http;

namespace Lab.Tests.Tools;

/// <summary>lab ab: ab 2.3's results read from real outputs (Tools/Samples/ab-*.txt), the table, the architectures from the catalogue, the command line.</summary>
public sealed class AbToolTests
{
    private static readonly IReadOnlyList<StorageDescription> Catalogue = StorageCatalogue.Parse(Samples.Read("storages.json")).Entries;

    [Fact]
    public void AReadRunsFigures() =>
        Assert.Equal(new AbStatistics(385.76m, 25.923m, 220, 0, null), AbOutputParser.Parse(Samples.Read("ab-read-postgres.txt")));

    [Fact]
    public void Non2xxAnswersCountAsFailed()
    {
        // The write body names location ids the small test data set does not have: 400 for each.
        var write = AbOutputParser.Parse(Samples.Read("ab-write-postgres.txt"));
        var unknownStorage = AbOutputParser.Parse(Samples.Read("ab-read-non2xx.txt"));

        Assert.Equal((0L, 200L, 200L), (write.Failed!.Value, write.Non2xx!.Value, write.Unsuccessful!.Value));
        Assert.Equal((6826.40m, 100L), (unknownStorage.RequestsPerSecond!.Value, unknownStorage.Unsuccessful!.Value));
    }

    [Fact]
    public void AnAbThatGaveUpPrintedNoResults()
    {
        var output = Samples.Read("ab-refused.txt");

        Assert.False(AbOutputParser.Parse(output).Printed);
        Assert.Equal("Benchmarking 127.0.0.1 (be patient)...apr_socket_recv: Connection refused (111)", AbOutputParser.LastLine(output));
    }

    [Fact]
    public void TheTableHasARowPerArchitectureAndNamesTheRunsAbGaveUpOn()
    {
        var read = new ToolRun(0, Samples.Read("ab-read-postgres.txt"));
        var write = new ToolRun(0, Samples.Read("ab-write-postgres.txt"));
        var refused = new ToolRun(111, Samples.Read("ab-refused.txt"));

        var (clean, cleanFailed) = AbTable.Render("title", [new AbRow("postgres", read, write)]);
        var (broken, brokenFailed) = AbTable.Render("title", [new AbRow("postgres", read, write), new AbRow("tarantool-memtx", refused, refused)]);

        Assert.False(cleanFailed);
        Assert.Contains("| postgres | 385.76 | 25.923 | 220 | 0 | 344.50 | 29.028 | ", clean);
        Assert.True(brokenFailed);
        Assert.Contains("| tarantool-memtx | — | — | — | — | — | — | — | — |", broken);
        Assert.Contains("tarantool-memtx read: ab exited 111: Benchmarking 127.0.0.1 (be patient)...apr_socket_recv: Connection refused (111)", broken);
    }

    [Fact]
    public void EveryItemArchitectureOfTheCatalogue() =>
        Assert.Equal(["postgres", "postgres-redis-cache", "postgres-redis-persistent", "tarantool-memtx", "tarantool-vinyl"], AbMatrix.Storages(Catalogue, null));

    [Fact]
    public void ASelectionMustServeItems()
    {
        Assert.Equal(["postgres"], AbMatrix.Storages(Catalogue, ["postgres"]));
        Assert.StartsWith("--storage: 'redis-aof' serves no items", Assert.Throws<InputException>(() => AbMatrix.Storages(Catalogue, ["redis-aof"])).Message);
    }

    [Fact]
    public void TheCommandLineOfScriptAb()
    {
        AbSettings Settings(params string[] args)
        {
            var parse = LabCli.Parse(["ab", .. args]);
            Assert.Empty(parse.Errors);
            return ((AbCommand)parse.CommandResult.Command).SettingsOf(parse);
        }

        Assert.Equal(new AbSettings("http://127.0.0.1:8080", null, 100, 2000, 5), Settings("--url", "http://127.0.0.1:8080"));
        var given = Settings("--url", "http://127.0.0.1:8080", "-c", "10", "-n", "300", "--item", "7", "--storage", "postgres,tarantool-vinyl");
        Assert.Equal((10, 300, 7L), (given.Concurrency, given.Requests, given.Item));
        Assert.Equal(["postgres", "tarantool-vinyl"], given.Storages!);
        Assert.Equal(Cli.InputError, LabCli.Run(["ab", "--url", "http://h:1", "-c", "0"], TextWriter.Null, TextWriter.Null));
    }
}
