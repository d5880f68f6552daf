using IntegrationService.Items;
using IntegrationService.Seeding;

namespace IntegrationService.Tests.Fixtures;

/// <summary>
/// A small item data set (locations 1..Locations) loaded once per test run into every item
/// backend, with the same generator script/services seed uses. Tests write only items of
/// their own (see <see cref="Ids"/>), never the seeded ones.
/// </summary>
public static class TestDataSet
{
    public const int Locations = 2_000;
    public const int Items = 100;
    private static readonly SemaphoreSlim Gate = new(1, 1);
    private static bool _loaded;

    public static async Task EnsureLoadedAsync(IServiceProvider services)
    {
        await Gate.WaitAsync();
        try
        {
            if (_loaded) return;
            var dataSet = ItemDataSetGenerator.Generate(seed: 7, Locations, Items);
            foreach (var loader in services.GetServices<IItemDataLoader>())
            {
                await loader.LoadAsync(dataSet, CancellationToken.None);
            }
            _loaded = true;
        }
        finally
        {
            Gate.Release();
        }
    }
}
