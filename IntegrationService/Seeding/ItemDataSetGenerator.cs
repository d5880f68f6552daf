using IntegrationService.Seeding;
using System.Globalization;
using System.Text;
using IntegrationService.Items;

namespace IntegrationService.Seeding;

/// <summary>
/// Generates the benchmark's item data set deterministically from a seed (the same seed gives
/// the same data on every architecture and every run; <c>script/services seed</c> and
/// <c>script/bench</c> load it, by default 100 000 locations and 500 000 items with seed 42):
/// locations 1..N with text of 50–800 characters and coordinates X in [-180, 180], Y in
/// [-90, 90]; items 1..M with 0–6 distinct location ids each.
/// </summary>
public static class ItemDataSetGenerator
{
    public const int DefaultLocations = 100_000;
    public const int DefaultItems = 500_000;

    private static readonly string[] Words =
    [
        "north", "south", "river", "harbour", "market", "station", "bridge", "square", "avenue", "park",
        "tower", "gate", "hill", "garden", "museum", "school", "depot", "quay", "lane", "court",
    ];

    public static ItemDataSet Generate(ulong seed, int locationCount = DefaultLocations, int itemCount = DefaultItems)
    {
        var random = new SplitMix64(seed);
        var locations = new Location[locationCount];
        var text = new StringBuilder(800);
        for (var id = 1; id <= locationCount; id++)
        {
            var length = (int)random.Range(50, 800);
            text.Clear().Append("location ").Append(id.ToString(CultureInfo.InvariantCulture));
            while (text.Length < length) text.Append(' ').Append(Words[random.Next() % (ulong)Words.Length]);
            text.Length = length;
            var x = Math.Round(random.NextDouble() * 360 - 180, 4);
            var y = Math.Round(random.NextDouble() * 180 - 90, 4);
            locations[id - 1] = new Location(id, text.ToString(), new Coordinates(x, y));
        }

        var items = new ItemLinks[itemCount];
        var chosen = new HashSet<long>();
        for (var id = 1; id <= itemCount; id++)
        {
            chosen.Clear();
            var count = (int)random.Range(0, Math.Min(6, locationCount));
            while (chosen.Count < count) chosen.Add(random.Range(1, locationCount));
            items[id - 1] = new ItemLinks(id, [.. chosen.Order()]);
        }
        return new ItemDataSet(locations, items);
    }
}
