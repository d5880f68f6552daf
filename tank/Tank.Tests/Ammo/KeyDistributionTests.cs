using Tank.Ammo;
using Tank.Ammo.Keys;
using Tank.Commands;
using Harness.CommandLine;

namespace Tank.Tests.Ammo;

/// <summary>--distribution: YCSB's uniform, scrambled zipfian, latest and hotspot over the keyed scenarios.</summary>
public sealed class KeyDistributionTests
{
    private static string[] KvGet(string distribution) =>
        ["--scenario", "kv-get", "--storage", "postgres", "--keys", "100000", "--count", "100000", "--distribution", distribution, "--format", "uri"];

    [Fact]
    public void ZipfianPutsAtLeast40PercentOfRequestsOnTheHottestOnePercentOfKeysAndUniformAtMost5()
    {
        var zipfian = AmmoFile.KvKeys(AmmoFile.Write(KvGet("zipfian")));
        var uniform = AmmoFile.KvKeys(AmmoFile.Write(KvGet("uniform")));
        Assert.Equal(100_000, zipfian.Length);
        Assert.Equal(100_000, uniform.Length);
        Assert.True(AmmoFile.TopShare(zipfian, 100_000, 0.01) >= 0.40, $"zipfian top 1 %: {AmmoFile.TopShare(zipfian, 100_000, 0.01):P1}");
        Assert.True(AmmoFile.TopShare(uniform, 100_000, 0.01) <= 0.05, $"uniform top 1 %: {AmmoFile.TopShare(uniform, 100_000, 0.01):P1}");
    }

    [Fact]
    public void ScrambledZipfianSpreadsTheHotKeysOverTheKeySpace()
    {
        var keys = AmmoFile.KvKeys(AmmoFile.Write(KvGet("zipfian")));
        var hottest = keys.GroupBy(k => k).OrderByDescending(g => g.Count()).Take(100).Select(g => g.Key).ToList();
        // Unscrambled, the 100 hottest would be keys 0..99; spread, they fall in most tenths of the space.
        Assert.True(hottest.Select(k => k / 10_000).Distinct().Count() >= 8, string.Join(",", hottest));
    }

    [Fact]
    public void LatestLeansTowardsTheNewestKeys()
    {
        var keys = AmmoFile.KvKeys(AmmoFile.Write(KvGet("latest")));
        Assert.True(keys.Count(k => k >= 99_000) >= 0.4 * keys.Length);
        Assert.Equal(99_999, keys.GroupBy(k => k).MaxBy(g => g.Count())!.Key);
    }

    [Fact]
    public void HotspotSendsTheOpsShareToTheHotFractionAtTheStartOfTheKeys()
    {
        var keys = AmmoFile.KvKeys(AmmoFile.Write([.. KvGet("hotspot"), "--hotspot-fraction", "0.1", "--hotspot-ops", "0.9"]));
        var hot = keys.Count(k => k < 10_000) / (double)keys.Length;
        Assert.InRange(hot, 0.89, 0.91);
    }

    [Fact]
    public void ExplicitUniformIsTheDefaultByteForByteAndASeedFixesEveryDistribution()
    {
        string[] read = ["--scenario", "author-read", "--storage", "postgres", "--count", "500", "--author-ids", "3-900"];
        Assert.Equal(AmmoFile.Write(read), AmmoFile.Write([.. read, "--distribution", "uniform"]));
        foreach (var distribution in KeyDistributions.Names)
        {
            Assert.Equal(AmmoFile.Write([.. read, "--distribution", distribution, "--seed", "7"]), AmmoFile.Write([.. read, "--distribution", distribution, "--seed", "7"]));
            Assert.NotEqual(AmmoFile.Write([.. read, "--distribution", distribution, "--seed", "7"]), AmmoFile.Write([.. read, "--distribution", distribution, "--seed", "8"]));
        }
    }

    [Theory]
    [InlineData("zipfian")]
    [InlineData("latest")]
    [InlineData("hotspot")]
    public void EveryKeyedScenarioStaysInsideItsIds(string distribution)
    {
        var options = new AmmoOptions
        {
            Scenario = Scenario.ItemRead, Storage = "s", Host = "h", Count = 5000, Items = 300, AuthorIdMin = 10, AuthorIdMax = 40,
            Distribution = KeyDistributions.Parse(distribution),
        };
        Assert.All(AmmoGenerator.Generate(options), r => Assert.InRange(long.Parse(r.Spec.Uri.Split('/')[2]), 1, 300));
        Assert.All(AmmoGenerator.Generate(options with { Scenario = Scenario.ItemWrite }), r => Assert.InRange(long.Parse(r.Spec.Uri.Split('/')[2]), 1, 300));
        Assert.All(AmmoGenerator.Generate(options with { Scenario = Scenario.AuthorMixed }).Where(r => r.Spec.Method == "GET"),
            r => Assert.InRange(long.Parse(r.Spec.Uri.Split("id=")[1].Split('&')[0]), 10, 40));
        Assert.All(AmmoGenerator.Generate(options with { Scenario = Scenario.KvPut, Keys = 77 }), r => Assert.InRange(long.Parse(r.Spec.Uri.Split("key")[1].Split('&')[0]), 0, 76));
    }

    [Fact]
    public void ZetaOfALargeKeySpaceMatchesTheExactSum()
    {
        // Above two million items the tail is estimated; it must agree with summing every term.
        var ranks = new ZipfianRanks(0.99);
        double exact = 0;
        for (long i = 1; i <= 3_000_000; i++) exact += 1 / Math.Pow(i, 0.99);
        Assert.Equal(exact, ranks.Zeta(3_000_000), 1e-9 * exact);
    }

    [Theory]
    [InlineData(new[] { "--scenario", "queue-read", "--distribution", "zipfian" }, "picks no keys")]
    [InlineData(new[] { "--scenario", "author-write", "--distribution", "hotspot" }, "picks no keys")]
    [InlineData(new[] { "--scenario", "item-read", "--hot-key", "--distribution", "zipfian" }, "--hot-key")]
    [InlineData(new[] { "--scenario", "kv-put", "--sequential", "--distribution", "latest" }, "--sequential")]
    [InlineData(new[] { "--scenario", "kv-get", "--distribution", "zipfian", "--zipf-theta", "1" }, "--zipf-theta")]
    [InlineData(new[] { "--scenario", "kv-get", "--distribution", "hotspot", "--hotspot-fraction", "1.5" }, "--hotspot-fraction")]
    [InlineData(new[] { "--scenario", "kv-get", "--distribution", "pareto" }, "--distribution")]
    [InlineData(new[] { "--scenario", "kv-put", "--sequential", "--workload", "ycsb-a" }, "--sequential")]
    [InlineData(new[] { "--scenario", "kv-put", "--workload", "ycsb-d", "--zipf-theta", "2" }, "--zipf-theta")]
    public void BadCombinationsAreInputErrorsAndWriteNothing(string[] args, string named)
    {
        var dir = Directory.CreateTempSubdirectory("tank-ammo-").FullName;
        try
        {
            var error = new StringWriter();
            Assert.Equal(Cli.InputError, TankCli.Run(["ammo", "--storage", "postgres", .. args, "--out", Path.Combine(dir, "a")], TextWriter.Null, error));
            Assert.Contains(named, error.ToString());
            Assert.Empty(Directory.GetFiles(dir));
        }
        finally { Directory.Delete(dir, recursive: true); }
    }
}
