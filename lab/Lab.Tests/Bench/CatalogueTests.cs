using Tank.Bench;

namespace Tank.Tests.Bench;

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
        Assert.Equal(("durability of postgres-redis-cache", false), (cache.Durability, cache.Shardable));
        Assert.True(entries.Single(e => e.Name == "tarantool-vinyl").Shardable);
        Assert.True(entries.Single(e => e.Name == "redis-aof").IsCalled("redis_aof"));
        Assert.True(entries.Single(e => e.Name == "redis-aof").IsCalled("REDIS-AOF"));
    }

    [Fact]
    public void MissingOptionalFieldsAreEmpty()
    {
        var entry = Catalogue.Parse("""[{"name":"x","serves":["Queue"]}]""").Single();
        Assert.Equal(("x", 0, 0, 0, "", false), (entry.Name, entry.Servers.Count, entry.Caches.Count, entry.Aliases.Count, entry.Durability, entry.Shardable));
    }

    [Fact]
    public void ANonArrayIsRejected() => Assert.Throws<FormatException>(() => Catalogue.Parse("""{"name":"x"}"""));
}
