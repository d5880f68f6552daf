using System.CommandLine.Help;
using IntegrationService.Items;
using IntegrationService.Seeding;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// The command lines of <c>IntegrationService seed</c>, <c>fill-queue</c> and <c>purge-queue</c>, parsed only: no
/// command runs and no backend is contacted (help and parse errors never reach the commands).
/// </summary>
public sealed class ServiceCliTests
{
    private static (int Code, string Output, string Error) Run(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var code = ServiceCli.RunAsync(args, output, error).GetAwaiter().GetResult();
        return (code, output.ToString(), error.ToString());
    }

    private static SeedOptions Seed(params string[] args)
    {
        var parse = ServiceCli.Parse(["seed", .. args]);
        Assert.Empty(parse.Errors);
        return ((SeedCommand)parse.CommandResult.Command).OptionsOf(parse);
    }

    private static FillQueueOptions FillQueue(params string[] args)
    {
        var parse = ServiceCli.Parse(["fill-queue", .. args]);
        Assert.Empty(parse.Errors);
        return ((FillQueueCommand)parse.CommandResult.Command).OptionsOf(parse);
    }

    private static PurgeQueueOptions PurgeQueue(params string[] args)
    {
        var parse = ServiceCli.Parse(["purge-queue", .. args]);
        Assert.Empty(parse.Errors);
        return ((PurgeQueueCommand)parse.CommandResult.Command).OptionsOf(parse);
    }

    [Theory]
    [InlineData(new[] { "seed" }, true)]
    [InlineData(new[] { "purge-queue", "--queue", "beanstalkd" }, true)]
    [InlineData(new[] { "fill-queue", "--queue", "postgres", "--depth", "1" }, true)]
    [InlineData(new[] { "--urls", "http://127.0.0.1:18080", "--Logging:LogLevel:Default=Warning" }, false)]
    [InlineData(new[] { "--Storage:Default=postgres" }, false)]
    [InlineData(new[] { "--urls", "http://h:1", "seed" }, false)]
    [InlineData(new[] { "settle", "--vacuum" }, true)]
    [InlineData(new string[0], false)]
    public void OnlyAToolsNameAtTheStartLeavesTheWebHost(string[] args, bool tool) => Assert.Equal(tool, ServiceCli.Handles(args));

    [Fact]
    public void SeedDefaultsAreTheDataSetOfTheBench() =>
        Assert.Equal(new SeedOptions(42, ItemDataSetGenerator.DefaultLocations, ItemDataSetGenerator.DefaultItems, null), Seed());

    [Fact]
    public void SeedValuesAreTyped()
    {
        // script/crashtest's and script/bench's command lines.
        Assert.Equal((7UL, 20_000, 100), Seed("--locations", "20000", "--items", "100", "--seed", "7") is var s ? (s.Seed, s.Locations, s.Items) : default);
        Assert.Equal(["postgres", "redis-cache"], Seed("--only", "postgres,redis-cache").Only);
        Assert.Equal(ulong.MaxValue, Seed("--seed", "18446744073709551615").Seed);
    }

    [Fact]
    public void FillQueueReadsScriptBenchsCommandLine()
    {
        Assert.Equal(new FillQueueOptions("redis_aof", 123_000, 64), FillQueue("--queue", "redis_aof", "--depth", "123000"));
        Assert.Equal(new FillQueueOptions("beanstalkd", 0, 8), FillQueue("--depth", "0", "--concurrency", "8", "--queue", "beanstalkd"));
    }

    [Fact]
    public void PurgeQueueReadsTheBenchsCommandLine() =>
        Assert.Equal(new PurgeQueueOptions("redis_aof"), PurgeQueue("--queue", "redis_aof"));

    [Theory]
    [InlineData(new[] { "purge-queue" }, "purge-queue: error: Option '--queue' is required.")]
    [InlineData(new[] { "purge-queue", "--queue", "" }, "purge-queue: error: --queue: '' is empty")]
    [InlineData(new[] { "purge-queue", "--queue", "postgres", "--depth", "1" }, "purge-queue: error: Unrecognized command or argument '--depth'.")]
    public void PurgeQueueBadInputIsExitCode2NamingTheOption(string[] args, string message) =>
        BadInputIsExitCode2NamingTheOptionAndValue(args, message);

    [Theory]
    [InlineData(new[] { "seed", "--locations", "many" }, "seed: error: --locations: 'many' is not a whole number")]
    [InlineData(new[] { "seed", "--items", "0" }, "seed: error: --items: '0' must be at least 1")]
    [InlineData(new[] { "seed", "--locations", "99999999999" }, "seed: error: --locations: '99999999999' must be at most 2147483647")]
    [InlineData(new[] { "seed", "--seed", "-1" }, "seed: error: --seed: '-1' must be at least 0")]
    [InlineData(new[] { "seed", "--only", "postgres,mongo" }, "seed: error: --only: 'mongo' is not one of postgres, redis-cache, redis-persistent, tarantool")]
    [InlineData(new[] { "seed", "--items" }, "seed: error: Required argument missing for option: '--items'.")]
    [InlineData(new[] { "seed", "--item", "5" }, "seed: error: Unrecognized command or argument '--item'.")]
    [InlineData(new[] { "seed", "extra" }, "seed: error: Unrecognized command or argument 'extra'.")]
    [InlineData(new[] { "fill-queue", "--depth", "10" }, "fill-queue: error: Option '--queue' is required.")]
    [InlineData(new[] { "fill-queue", "--queue", "postgres" }, "fill-queue: error: Option '--depth' is required.")]
    [InlineData(new[] { "fill-queue", "--queue", "postgres", "--depth", "-1" }, "fill-queue: error: --depth: '-1' must be at least 0")]
    [InlineData(new[] { "fill-queue", "--queue", "postgres", "--depth", "1e6" }, "fill-queue: error: --depth: '1e6' is not a whole number")]
    [InlineData(new[] { "fill-queue", "--queue", "", "--depth", "1" }, "fill-queue: error: --queue: '' is empty")]
    [InlineData(new[] { "fill-queue", "--queue", "postgres", "--depth", "1", "--concurrency", "0" }, "fill-queue: error: --concurrency: '0' must be at least 1")]
    public void BadInputIsExitCode2NamingTheOptionAndValue(string[] args, string message)
    {
        var (code, _, error) = Run(args);
        Assert.Equal(ServiceCli.UsageError, code);
        Assert.Contains(message, error);
        Assert.Contains($"see 'IntegrationService {args[0]} --help'", error);
    }

    [Theory]
    [InlineData("seed")]
    [InlineData("fill-queue")]
    [InlineData("purge-queue")]
    [InlineData("catalogue")]
    public void HelpExitsZeroAndListsEveryOption(string name)
    {
        var (code, output, error) = Run(name, "--help");
        Assert.Equal(0, code);
        Assert.Equal("", error);
        var command = ServiceCli.Build().Subcommands.Single(c => c.Name == name);
        Assert.False(string.IsNullOrWhiteSpace(command.Description));
        Assert.Contains($"IntegrationService {name}", output);
        foreach (var option in command.Options.Where(o => o is not HelpOption))
        {
            Assert.False(string.IsNullOrWhiteSpace(option.Description), $"{name} {option.Name} has no description");
            Assert.Contains(option.Name, output);
        }
    }

    [Fact]
    public void EveryOptionIsDocumentedInTheReadme()
    {
        var readme = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "docs", "OPERATIONS.md"));
        foreach (var command in ServiceCli.Build().Subcommands)
        {
            var usage = readme.Split('\n').FirstOrDefault(l => l.Contains($"`IntegrationService {command.Name} "));
            Assert.True(usage is not null, $"docs/OPERATIONS.md shows no 'IntegrationService {command.Name} …' usage");
            foreach (var option in command.Options.Where(o => o is not HelpOption))
                Assert.Contains(option.Name, usage);
        }
    }

    [Fact]
    public void CatalogueJsonIsWhatGetStoragesAnswersWithoutContactingAServer()
    {
        var (code, output, error) = Run("catalogue", "--json");

        Assert.Equal(0, code);
        Assert.Equal("", error);
        using var json = System.Text.Json.JsonDocument.Parse(output);
        var names = json.RootElement.EnumerateArray().Select(e => e.GetProperty("name").GetString()).ToArray();
        Assert.Contains("tarantool-vinyl", names);
        Assert.Contains("redis-rdb", names);
        var rdb = json.RootElement.EnumerateArray().Single(e => e.GetProperty("name").GetString() == "redis-rdb");
        Assert.Equal("since-snapshot", rdb.GetProperty("durability").GetProperty("processCrash").GetString());
        Assert.Equal("redis-rdb", rdb.GetProperty("servers")[0].GetString());
    }

    [Fact]
    public void CatalogueWithoutJsonPrintsOneLinePerArchitecture()
    {
        var (code, output, _) = Run("catalogue");

        Assert.Equal(0, code);
        Assert.Contains(output.Split('\n'), line => line.StartsWith("redis-aof ", StringComparison.Ordinal) && line.Contains("window (1000 ms)"));
    }

    [Fact]
    public async Task APurgesCountIsReadAgainUntilTheQueueShowsThePurge()
    {
        var counts = new Queue<long>([10_811, 3, 0, 7]);
        var reads = 0;

        var after = await PurgeQueueCommand.SettledCountAsync(() => { reads++; return Task.FromResult(counts.Dequeue()); }, [TimeSpan.Zero, TimeSpan.Zero, TimeSpan.Zero, TimeSpan.Zero]);

        Assert.Equal(0, after);
        Assert.Equal(3, reads); // no read after the first 0
    }

    [Fact]
    public async Task AQueueStillWrittenToCountsMessagesAfterEveryWaitAndThePurgeFails()
    {
        var reads = 0;

        var after = await PurgeQueueCommand.SettledCountAsync(() => Task.FromResult((long)++reads), [TimeSpan.Zero, TimeSpan.Zero]);

        Assert.Equal(3, after);
        Assert.Equal(3, reads);
        Assert.InRange(PurgeQueueCommand.SettleDelays.Sum(d => d.TotalSeconds), 2, 5); // seconds, not minutes, before it says so
    }
}
