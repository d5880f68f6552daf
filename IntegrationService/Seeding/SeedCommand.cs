using System.CommandLine;
using System.Diagnostics;
using IntegrationService.Items;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService seed [--seed N] [--locations N] [--items N] [--only name,…]</c>: loads the
/// generated data set into every item backend (script/services seed).
/// </summary>
public sealed class SeedCommand : Command
{
    /// <summary>The item backends a data set can be loaded into (their loaders' names), for --only.</summary>
    public static readonly IReadOnlyList<string> Backends = ["postgres", "redis-cache", "redis-persistent", "tarantool"];

    private readonly Option<ulong> _seed = CommandLineOptions.WholeNumber("--seed", "The generator's seed: the same seed, the same data set", ulong.MinValue, ulong.MaxValue, defaultValue: 42UL);
    private readonly Option<int> _locations = CommandLineOptions.WholeNumber("--locations", "Locations to generate (ids 1..N)", 1, int.MaxValue,
        defaultValue: ItemDataSetGenerator.DefaultLocations);
    private readonly Option<int> _items = CommandLineOptions.WholeNumber("--items", "Items to generate (ids 1..N), each with 0 to 5 locations", 1, int.MaxValue,
        defaultValue: ItemDataSetGenerator.DefaultItems);
    // Text, split by OptionsOf: System.CommandLine turns an absent array option into [] (no backend), not null (all).
    private readonly Option<string?> _only = new("--only")
    {
        Description = $"Load only these backends, comma-separated: {string.Join(", ", Backends)} (redis-cache: drops the cached items)",
        HelpName = "name,…",
        CustomParser = result =>
        {
            var text = result.Tokens[0].Value;
            foreach (var unknown in text.Split(',').Where(n => !Backends.Contains(n)))
                result.AddError($"--only: '{unknown}' is not one of {string.Join(", ", Backends)}");
            return text;
        },
    };

    public SeedCommand() : base("seed", "Loads the generated item data set into every item backend (or those of --only)")
    {
        Add(_seed);
        Add(_locations);
        Add(_items);
        Add(_only);
        SetAction((parse, _) => RunAsync(OptionsOf(parse)));
    }

    /// <summary>The options of a parsed command line; nothing is contacted.</summary>
    public SeedOptions OptionsOf(ParseResult parse) =>
        new(parse.GetRequiredValue(_seed), parse.GetRequiredValue(_locations), parse.GetRequiredValue(_items), parse.GetValue(_only)?.Split(','));

    private static async Task<int> RunAsync(SeedOptions options)
    {
        using var host = await StorageHost.StartAsync();
        var loaders = host.Services.GetServices<IItemDataLoader>().ToList();
        // --only is checked against Backends while parsing; a loader under another name would be unreachable by it.
        if (loaders.FirstOrDefault(l => !Backends.Contains(l.Name)) is { } stray)
            throw new InvalidOperationException($"item loader '{stray.Name}' is missing from SeedCommand.Backends");

        var total = Stopwatch.StartNew();
        var dataSet = ItemDataSetGenerator.Generate(options.Seed, options.Locations, options.Items);
        Console.WriteLine($"generated {options.Locations} locations and {options.Items} items (seed {options.Seed}) in {total.Elapsed.TotalSeconds:F1} s");
        foreach (var loader in loaders)
        {
            if (options.Only is not null && !options.Only.Contains(loader.Name)) continue;
            var stopwatch = Stopwatch.StartNew();
            await loader.LoadAsync(dataSet, CancellationToken.None);
            Console.WriteLine($"loaded into {loader.Name} in {stopwatch.Elapsed.TotalSeconds:F1} s");
        }
        Console.WriteLine($"seed done in {total.Elapsed.TotalSeconds:F1} s");
        await host.StopAsync();
        return 0;
    }
}
