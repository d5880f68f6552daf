using System.Text;
using Tank.Ammo;
using Tank.Commands;
using Harness.CommandLine;

namespace Tank.Tests.Ammo;

/// <summary>The key-value scenarios: PUT and GET /v0/entity?id=key&lt;N&gt; over a stated key space.</summary>
public sealed class KvAmmoTests
{
    private static AmmoOptions Options(Scenario scenario, long count = 1000, long keys = 100, bool counterValues = false, bool sequential = false) =>
        new() { Scenario = scenario, Storage = "redis-cluster", Host = "127.0.0.1:8080", Count = count, Keys = keys, CounterValues = counterValues, Sequential = sequential };

    private static long KeyOf(string uri)
    {
        const string prefix = "/v0/entity?id=key";
        Assert.StartsWith(prefix, uri);
        return long.Parse(uri[prefix.Length..uri.IndexOf('&')]);
    }

    [Theory]
    [InlineData("kv-put", Scenario.KvPut)]
    [InlineData("kv-get", Scenario.KvGet)]
    public void NamesParseAndDoubleAsTags(string name, Scenario scenario)
    {
        Assert.Equal(scenario, Scenarios.Parse(name));
        Assert.All(AmmoGenerator.Generate(Options(scenario, count: 10)), r => Assert.Equal(name, r.Tag));
    }

    [Fact]
    public void KvPutSendsOneKibibyteOfRandomBytesAsOctetStream()
    {
        var requests = AmmoGenerator.Generate(Options(Scenario.KvPut, count: 200)).Select(r => r.Spec).ToList();
        Assert.All(requests, r =>
        {
            Assert.Equal("PUT", r.Method);
            Assert.EndsWith("&storage=redis-cluster", r.Uri);
            Assert.InRange(KeyOf(r.Uri), 0, 99);
            Assert.Equal(AmmoOptions.KvValueBytes, r.Body.Length);
            var text = Encoding.ASCII.GetString(r.Encode());
            Assert.Contains("\r\nContent-Type: application/octet-stream\r\n", text);
            Assert.Contains($"\r\nContent-Length: {AmmoOptions.KvValueBytes}\r\n", text);
        });
        // Random, not a repeated pattern: values differ from each other and use the whole byte range.
        Assert.Equal(requests.Count, requests.Select(r => Convert.ToHexString(r.Body)).Distinct().Count());
        Assert.Equal(256, requests.SelectMany(r => r.Body).Distinct().Count());
    }

    [Fact]
    public void KeysCoverTheKeySpaceEvenly()
    {
        var counts = AmmoGenerator.Generate(Options(Scenario.KvGet, count: 100_000, keys: 100))
            .GroupBy(r => KeyOf(r.Spec.Uri)).ToDictionary(g => g.Key, g => g.Count());
        Assert.Equal(Enumerable.Range(0, 100).Select(i => (long)i), counts.Keys.Order());
        Assert.All(counts.Values, c => Assert.InRange(c, 850, 1150));
    }

    [Fact]
    public void SequentialPutsWriteEveryKeyInOrderAndCounterValuesNameTheKey()
    {
        var requests = AmmoGenerator.Generate(Options(Scenario.KvPut, count: 250, keys: 100, counterValues: true, sequential: true)).Select(r => r.Spec).ToList();
        for (var i = 0; i < requests.Count; i++)
        {
            Assert.Equal(i % 100, KeyOf(requests[i].Uri));
            Assert.Equal($"value{i % 100}", Encoding.ASCII.GetString(requests[i].Body));
        }
    }

    [Fact]
    public void KvGetIsABodilessGetAndKvPutIsPhantomOnly()
    {
        var get = Encoding.ASCII.GetString(AmmoGenerator.Generate(Options(Scenario.KvGet, count: 1)).Single().Spec.Encode());
        Assert.Matches(@"^GET /v0/entity\?id=key\d+&storage=redis-cluster HTTP/1\.1\r\nHost: 127\.0\.0\.1:8080\r\n\r\n$", get);
        Assert.True(Scenario.KvGet.Allows(AmmoFormat.Uri));
        Assert.False(Scenario.KvGet.Allows(AmmoFormat.UriPost));
        Assert.True(Scenario.KvPut.Allows(AmmoFormat.Phantom));
        Assert.False(Scenario.KvPut.Allows(AmmoFormat.Uri));
        Assert.False(Scenario.KvPut.Allows(AmmoFormat.UriPost));
    }

    [Fact]
    public void TankAmmoTakesTheKvOptions()
    {
        var dir = Directory.CreateTempSubdirectory("tank-kv-ammo-").FullName;
        try
        {
            var file = Path.Combine(dir, "put.ammo");
            Assert.Equal(0, TankCli.Run(["ammo", "--scenario", "kv-put", "--storage", "postgres", "--host", "h:1", "--count", "2",
                "--keys", "5", "--sequential", "--counter-values", "--out", file]));
            const string first = "PUT /v0/entity?id=key0&storage=postgres HTTP/1.1\r\nContent-Type: application/octet-stream\r\nHost: h:1\r\nContent-Length: 6\r\n\r\nvalue0";
            const string second = "PUT /v0/entity?id=key1&storage=postgres HTTP/1.1\r\nContent-Type: application/octet-stream\r\nHost: h:1\r\nContent-Length: 6\r\n\r\nvalue1";
            Assert.Equal($"{first.Length} kv-put\n{first}\n{second.Length} kv-put\n{second}\n", File.ReadAllText(file));

            var error = new StringWriter();
            Assert.Equal(Cli.InputError, TankCli.Run(["ammo", "--scenario", "kv-put", "--storage", "postgres", "--keys", "0",
                "--out", Path.Combine(dir, "x")], TextWriter.Null, error));
            Assert.Contains("--keys", error.ToString());
        }
        finally { Directory.Delete(dir, recursive: true); }
    }
}
