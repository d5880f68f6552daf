using System.Diagnostics;
using System.Globalization;
using IntegrationService.Items;

namespace IntegrationService.Seeding;

/// <summary>
/// <c>IntegrationService seed [--seed N] [--locations N] [--items N] [--only name,…]</c>: loads the
/// generated data set into every item backend (script/services seed).
/// </summary>
public static class SeedCommand
{
    public static async Task<int> RunAsync(string[] args)
    {
        var seed = 42UL;
        var locations = ItemDataSetGenerator.DefaultLocations;
        var items = ItemDataSetGenerator.DefaultItems;
        string[]? only = null;
        for (var i = 0; i < args.Length; i++)
        {
            var value = i + 1 < args.Length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--seed" when value is not null: seed = ulong.Parse(value, CultureInfo.InvariantCulture); i++; break;
                case "--locations" when value is not null: locations = int.Parse(value, CultureInfo.InvariantCulture); i++; break;
                case "--items" when value is not null: items = int.Parse(value, CultureInfo.InvariantCulture); i++; break;
                case "--only" when value is not null: only = value.Split(','); i++; break;
                default:
                    await Console.Error.WriteLineAsync($"seed: unknown or incomplete option '{args[i]}'. Options: --seed N --locations N --items N --only postgres,redis-cache,redis-persistent,tarantool (redis-cache: drops the cached items)");
                    return 2;
            }
        }

        using var host = await StorageHost.StartAsync();

        var total = Stopwatch.StartNew();
        var dataSet = ItemDataSetGenerator.Generate(seed, locations, items);
        Console.WriteLine($"generated {locations} locations and {items} items (seed {seed}) in {total.Elapsed.TotalSeconds:F1} s");
        foreach (var loader in host.Services.GetServices<IItemDataLoader>())
        {
            if (only is not null && !only.Contains(loader.Name)) continue;
            var stopwatch = Stopwatch.StartNew();
            await loader.LoadAsync(dataSet, CancellationToken.None);
            Console.WriteLine($"loaded into {loader.Name} in {stopwatch.Elapsed.TotalSeconds:F1} s");
        }
        Console.WriteLine($"seed done in {total.Elapsed.TotalSeconds:F1} s");
        await host.StopAsync();
        return 0;
    }
}
