using Tank.Commands;
using Harness.CommandLine;

namespace Tank.Tests.Ammo;

/// <summary>--workload: YCSB's core workloads on the Author and key-value APIs, each shot tagged with its operation.</summary>
public sealed class WorkloadTests
{
    private static string Kv(string workload, int count = 10_000) =>
        AmmoFile.Write("--scenario", "kv-get", "--storage", "postgres", "--workload", workload, "--count", count.ToString());

    [Fact]
    public void YcsbBOnTheKvApiHasFivePercentPuts()
    {
        var methods = AmmoFile.Methods(Kv("ycsb-b"));
        Assert.Equal(10_000, methods.Length);
        Assert.InRange(methods.Count(m => m == "PUT") / 10_000.0, 0.04, 0.06);
        Assert.Equal(methods.Length, methods.Count(m => m is "GET" or "PUT"));
    }

    [Theory]
    [InlineData("ycsb-a", 0.50, 0.50, 0.00)]
    [InlineData("ycsb-b", 0.95, 0.05, 0.00)]
    [InlineData("ycsb-c", 1.00, 0.00, 0.00)]
    [InlineData("ycsb-d", 0.95, 0.00, 0.05)]
    public void ProportionsAreYcsbsAndTagsNameTheOperation(string workload, double read, double update, double insert)
    {
        var tags = AmmoFile.Tags(Kv(workload));
        Assert.Equal(10_000, tags.Length);
        Assert.InRange(tags.Count(t => t == "read") / 10_000.0, read - 0.01, read + 0.01);
        Assert.InRange(tags.Count(t => t == "update") / 10_000.0, update - 0.01, update + 0.01);
        Assert.InRange(tags.Count(t => t == "insert") / 10_000.0, insert - 0.01, insert + 0.01);
    }

    [Fact]
    public void YcsbDInsertsNewKeysAndItsLatestReadsChaseThem()
    {
        var ammo = Kv("ycsb-d");
        var keys = AmmoFile.KvKeys(ammo);
        var tags = AmmoFile.Tags(ammo);
        var inserted = keys.Where((_, i) => tags[i] == "insert").ToArray();
        Assert.Equal(Enumerable.Range(100_000, inserted.Length), inserted); // key100000, key100001, … in order
        var newReads = keys.Where((k, i) => tags[i] == "read" && k >= 100_000).Count();
        Assert.True(newReads > 0.2 * keys.Length, $"{newReads} reads of inserted keys");
    }

    [Fact]
    public void YcsbFReadModifyWriteIsAGetThenAnUpdateOfTheSameKey()
    {
        var ammo = AmmoFile.Write("--scenario", "author-read", "--storage", "postgres", "--workload", "ycsb-f", "--count", "2000", "--author-ids", "1-500");
        var tags = AmmoFile.Tags(ammo);
        var requests = ammo.Split(new[] { "\n" }, StringSplitOptions.None).Where(l => l.StartsWith("GET ") || l.StartsWith("{")).ToArray();
        Assert.Equal(2000, tags.Length);
        Assert.Equal(requests.Length, tags.Length);
        var rmw = 0;
        for (var i = 0; i < tags.Length; i++)
        {
            if (tags[i] != "rmw-read") continue;
            Assert.Equal("rmw-update", tags[i + 1]);
            var id = requests[i].Split("id=")[1].Split('&')[0];
            Assert.StartsWith($"{{\"id\":{id},", requests[i + 1]);
            rmw++;
        }
        // Half the operations are read-modify-writes, of two shots each.
        var operations = rmw + tags.Count(t => t == "read");
        Assert.InRange(rmw / (double)operations, 0.46, 0.54);
    }

    [Fact]
    public void AuthorWorkloadsUseGetUpdateAndSave()
    {
        var ammo = AmmoFile.Write("--scenario", "author-mixed", "--storage", "postgres", "--workload", "ycsb-a", "--count", "200");
        Assert.Contains("GET /Author/Get?id=", ammo);
        Assert.Contains("POST /Author/Update?storage=postgres", ammo);
        var inserts = AmmoFile.Write("--scenario", "author-read", "--storage", "postgres", "--workload", "ycsb-d", "--count", "400");
        Assert.Contains("POST /Author/Save?storage=postgres", inserts);
    }

    [Fact]
    public void ReadOnlyYcsbCFitsUriAmmoAndTheOthersArePhantomOnly()
    {
        var uri = AmmoFile.Write("--scenario", "kv-put", "--storage", "postgres", "--workload", "ycsb-c", "--count", "50", "--format", "uri");
        Assert.Equal(50, uri.Split('\n').Count(l => l.StartsWith("/v0/entity?id=key") && l.EndsWith(" read")));
        var error = new StringWriter();
        Assert.Equal(Cli.InputError, TankCli.Run(["ammo", "--scenario", "kv-get", "--storage", "p", "--workload", "ycsb-a", "--format", "uri", "--out", "/nonexistent/x"], TextWriter.Null, error));
        Assert.Contains("phantom only", error.ToString());
        Assert.Equal(Cli.InputError, TankCli.Run(["ammo", "--scenario", "item-read", "--storage", "p", "--workload", "ycsb-b", "--out", "/nonexistent/x"], TextWriter.Null, error));
        Assert.Contains("has no workload", error.ToString());
    }
}
