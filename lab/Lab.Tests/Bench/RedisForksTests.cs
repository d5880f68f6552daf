using Lab.Bench;

namespace Lab.Tests.Bench;

/// <summary>Which Redis nodes a hold's forks are counted on, and how they are read.</summary>
public sealed class RedisForksTests
{
    [Fact]
    public void RedisWithSentinelIsReadOnItsPrimaryAndReplicaNotOnTheDefaultAddress()
    {
        // Both data nodes write an AOF; 127.0.0.1 has no redis-sentinel node to ask.
        Assert.Equal(["127.0.0.21", "127.0.0.22"], RedisForks.Hosts("redis-sentinel"));
        Assert.Equal(["127.0.0.1"], RedisForks.Hosts("redis-aof"));
        // redis-cluster-r2's six nodes each write an AOF, replicas too.
        Assert.Equal(["127.0.0.31", "127.0.0.32", "127.0.0.33", "127.0.0.34", "127.0.0.35", "127.0.0.36"], RedisForks.Hosts("redis-cluster-r2"));
    }

    [Fact]
    public void TheCountersAreReadFromInfoStats()
    {
        Assert.Equal(new RedisForks.Counters(7, 12.345), RedisForks.Parse("# Stats\r\ntotal_connections_received:5\r\nlatest_fork_usec:12345\r\ntotal_forks:7\r\n"));
        Assert.Null(RedisForks.Parse("# Stats\r\ntotal_connections_received:5\r\n"));
    }

    [Fact]
    public void ForksBetweenTwoReadsCountEveryNodeAndTheLongestLatestForkOfThoseThatForked()
    {
        RedisForks.Counters C(long forks, double ms) => new(forks, ms);
        Assert.Equal((3L, 40.0), RedisForks.Between([C(5, 90), C(2, 1)], [C(6, 3), C(4, 40)]));
        Assert.Equal((0L, (double?)null), RedisForks.Between([C(5, 90)], [C(5, 90)]));
        Assert.Null(RedisForks.Between(null, [C(5, 90)]));
        Assert.Null(RedisForks.Between([C(5, 90)], [C(5, 90), C(1, 1)]));
    }
}
