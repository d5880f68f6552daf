using IntegrationService.Seeding;

namespace IntegrationService.Tests.Unit;

public sealed class ItemDataSetGeneratorTests
{
    [Fact]
    public void TheSameSeedGivesTheSameDataSet()
    {
        var a = ItemDataSetGenerator.Generate(42, 500, 1000);
        var b = ItemDataSetGenerator.Generate(42, 500, 1000);
        Assert.Equal(a.Locations, b.Locations);
        Assert.Equal(a.Items.Select(i => string.Join(',', i.LocationIds)), b.Items.Select(i => string.Join(',', i.LocationIds)));
    }

    [Fact]
    public void ADifferentSeedGivesADifferentDataSet() =>
        Assert.NotEqual(ItemDataSetGenerator.Generate(1, 100, 10).Locations, ItemDataSetGenerator.Generate(2, 100, 10).Locations);

    [Fact]
    public void ValuesStayWithinTheDesignRanges()
    {
        var dataSet = ItemDataSetGenerator.Generate(42, 2000, 5000);
        Assert.Equal(Enumerable.Range(1, 2000).Select(i => (long)i), dataSet.Locations.Select(l => l.Id));
        Assert.All(dataSet.Locations, l =>
        {
            Assert.InRange(l.Text.Length, 50, 800);
            Assert.InRange(l.Coordinates.X, -180, 180);
            Assert.InRange(l.Coordinates.Y, -90, 90);
        });
        Assert.All(dataSet.Items, i =>
        {
            Assert.InRange(i.LocationIds.Length, 0, 6);
            Assert.Equal(i.LocationIds.Length, i.LocationIds.Distinct().Count());
            Assert.All(i.LocationIds, id => Assert.InRange(id, 1, 2000));
        });
        // Every set size 0..6 occurs: the sizes are spread, not constant.
        Assert.Equal(7, dataSet.Items.Select(i => i.LocationIds.Length).Distinct().Count());
    }
}
