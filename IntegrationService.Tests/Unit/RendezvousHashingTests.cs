using System.ComponentModel.DataAnnotations;
using IntegrationService.Kv.Cluster;

namespace IntegrationService.Tests.Unit;

public sealed class RendezvousHashingTests
{
    private static readonly string[] Three = ["http://10.0.0.1:8080", "http://10.0.0.2:8080", "http://10.0.0.3:8080"];

    private static readonly string[] Keys = Enumerable.Range(0, 10_000).Select(i => $"key{i}").ToArray();

    [Fact]
    public void TenThousandKeysSpreadWithinTenPercentOfEven()
    {
        var hashing = new RendezvousHashing(Three);
        var counts = Keys.GroupBy(hashing.Owner).ToDictionary(g => g.Key, g => g.Count());
        Assert.Equal(3, counts.Count);
        Assert.All(counts.Values, count => Assert.InRange(count, 10_000 / 3 * 0.9, 10_000 / 3 * 1.1));
    }

    [Fact]
    public void TheOwnerDoesNotDependOnTheOrderOfTheNodeList()
    {
        var hashing = new RendezvousHashing(Three);
        var reversed = new RendezvousHashing(Three.Reverse().ToArray());
        Assert.All(Keys, key => Assert.Equal(hashing.Owner(key), reversed.Owner(key)));
    }

    [Fact]
    public void AddingANodeMovesOnlyTheKeysItTakesAboutAQuarter()
    {
        var before = new RendezvousHashing(Three);
        var after = new RendezvousHashing([.. Three, "http://10.0.0.4:8080"]);
        var moved = Keys.Where(key => before.Owner(key) != after.Owner(key)).ToArray();
        Assert.All(moved, key => Assert.Equal("http://10.0.0.4:8080", after.Owner(key)));
        Assert.InRange(moved.Length, 2_250, 2_750);
    }

    [Fact]
    public void LongAndNonAsciiKeysHaveOwnersToo()
    {
        var hashing = new RendezvousHashing(Three);
        Assert.Contains(hashing.Owner(new string('k', 1024)), Three);
        Assert.Contains(hashing.Owner("ключ"), Three);
    }

    [Theory]
    [InlineData("http://a:1,http://b:1", "http://c:1", "Cluster:Self")]
    [InlineData("http://a:1,http://a:1", "http://a:1", "twice")]
    [InlineData("http://a:1,b:1", "http://a:1", "not an http")]
    public void AMisconfiguredClusterIsRejected(string nodes, string self, string message)
    {
        var options = new ClusterOptions { Nodes = nodes, Self = self };
        var results = options.Validate(new ValidationContext(options)).ToArray();
        Assert.Contains(results, r => r.ErrorMessage!.Contains(message, StringComparison.Ordinal));
    }

    [Fact]
    public void AQueueWaitAsLongAsTheProxyTimeoutIsRejected()
    {
        var options = new ClusterOptions { ProxyTimeoutMs = 100, ProxyQueueWaitMs = 100 };
        Assert.Contains(options.Validate(new ValidationContext(options)), r => r.ErrorMessage!.Contains("Cluster:ProxyQueueWaitMs", StringComparison.Ordinal));
        options.ProxyQueueWaitMs = 99;
        Assert.Empty(options.Validate(new ValidationContext(options)));
    }

    [Fact]
    public void OwnerIndexPointsAtTheOwnerInTheNodeList()
    {
        var hashing = new RendezvousHashing(Three);
        Assert.All(Keys.Take(1000), key => Assert.Equal(hashing.Owner(key), hashing.Nodes[hashing.OwnerIndex(key)]));
    }

    [Fact]
    public void NoNodesIsASingleNodeAndValid()
    {
        var options = new ClusterOptions();
        Assert.Empty(options.Validate(new ValidationContext(options)));
        Assert.Empty(options.NodeList);
    }
}
