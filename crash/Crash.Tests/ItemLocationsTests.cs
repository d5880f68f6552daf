using System.Text.Json;
using Crash;

namespace Crash.Tests;

public sealed class ItemLocationsTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(12_345)]
    [InlineData(ItemLocations.Blocks - 1)]
    public void TheFirstHundredThousandWritesOfARunAllSendDifferentSetsOfOneToFiveIdsInRange(long salt)
    {
        var sets = new HashSet<string>(StringComparer.Ordinal);
        for (long seq = 0; seq < ItemLocations.UniqueSets; seq++)
        {
            var ids = ItemLocations.For(seq, salt);
            Assert.InRange(ids.Length, 1, 5);
            Assert.Equal(ids.Length, ids.Distinct().Count());
            Assert.All(ids, id => Assert.InRange(id, 1, 100_000));
            Assert.True(sets.Add(ItemLocations.Canonical(ids)), $"write {seq} repeats an earlier set");
        }
    }

    [Theory]
    [InlineData(1, 0)]
    [InlineData(4, 3)]
    [InlineData(9, 0)]
    [InlineData(10, 7)]
    [InlineData(400, 399)]
    public void EveryNumberOfBlocksGivesBlocksTimesFiveDifferentSets(long blocks, long salt)
    {
        var sets = new HashSet<string>(StringComparer.Ordinal);
        for (long seq = 0; seq < blocks * ItemLocations.BlockSize; seq++)
        {
            var ids = ItemLocations.For(seq, salt, blocks);
            Assert.All(ids, id => Assert.InRange(id, 1, blocks * ItemLocations.BlockSize));
            Assert.True(sets.Add(ItemLocations.Canonical(ids)), $"write {seq} repeats an earlier set ({blocks} blocks)");
        }
    }

    [Fact]
    public void RunsWithDifferentSaltsSendDifferentSetsForTheSameWrite() =>
        Assert.NotEqual(ItemLocations.Canonical(ItemLocations.For(5, 0)), ItemLocations.Canonical(ItemLocations.For(5, 1)));

    [Fact]
    public void TheCanonicalSetIgnoresOrderAndDuplicates()
    {
        Assert.Equal("3,7,9", ItemLocations.Canonical([9, 3, 7, 3]));
        Assert.Equal(ReadValue.Empty, ItemLocations.Canonical([]));
    }

    [Fact]
    public void TheApisLocationArrayReadsAsTheSetOfItsIds()
    {
        var body = JsonSerializer.SerializeToUtf8Bytes(new object[]
        {
            new Dictionary<string, object> { ["ID"] = 12, ["Location"] = "x", ["Coordinates"] = new { X = 1.5, Y = 2 } },
            new Dictionary<string, object> { ["ID"] = 3, ["Location"] = "y", ["Coordinates"] = new { X = 0, Y = 0 } },
        });
        Assert.Equal(ReadValue.Of("3,12"), ItemWorkload.ParseLocations(body));
        Assert.Equal(ReadValue.Of(ReadValue.Empty), ItemWorkload.ParseLocations("[]"u8.ToArray()));
        Assert.Null(ItemWorkload.ParseLocations("<html>"u8.ToArray()));
    }
}
