using Harness.Catalogue;
using Lab.Bench;

namespace Lab.Tests.Bench;

public sealed class CatalogueTests
{
    [Fact]
    public void EveryFieldTheBenchUsesIsRead()
    {
        var entries = CatalogueFixture.Entries;
        Assert.Equal(10, entries.Count);
        var cache = entries.Single(e => e.Name == "postgres-redis-cache");
        Assert.Equal(["Author", "Item"], cache.Serves);
        Assert.Equal(["postgres"], cache.Servers);
        Assert.Equal(["redis-cache"], cache.Caches);
        Assert.Equal(("durability of postgres-redis-cache", false), (cache.Durability.Text, cache.Shardable));
        Assert.True(entries.Single(e => e.Name == "tarantool-vinyl").Shardable);
        Assert.True(entries.Single(e => e.Name == "redis-aof").IsCalled("redis_aof"));
        Assert.True(entries.Single(e => e.Name == "redis-aof").IsCalled("REDIS-AOF"));
    }

    [Fact]
    public void MissingOptionalFieldsAreEmpty()
    {
        var entry = StorageCatalogue.Parse("""[{"name":"x","serves":["Queue"]}]""").Entries.Single();
        Assert.Equal(("x", 0, 0, 0, "", false), (entry.Name, entry.Servers.Length, entry.Caches.Length, entry.Aliases.Length, entry.Durability.Text, entry.Shardable));
    }

    [Fact]
    public void ANonArrayIsRejected() => Assert.Throws<CatalogueException>(() => StorageCatalogue.Parse("""{"name":"x"}"""));
}
