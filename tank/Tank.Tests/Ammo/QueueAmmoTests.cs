using System.Text;
using Tank.Ammo;
using Tank.Commands;
using Harness.CommandLine;

namespace Tank.Tests.Ammo;

/// <summary>The queue scenarios: the original siege study's bodiless GETs on /write/{queue} and /read/{queue}.</summary>
public sealed class QueueAmmoTests
{
    private static AmmoOptions Options(Scenario scenario, string storage = "beanstalkd", long count = 100) =>
        new() { Scenario = scenario, Storage = storage, Host = "127.0.0.1:8080", Count = count };

    private static List<string> Requests(AmmoOptions options) =>
        AmmoGenerator.Generate(options).Select(r => Encoding.UTF8.GetString(r.Spec.Encode())).ToList();

    [Theory]
    [InlineData("queue-write", Scenario.QueueWrite)]
    [InlineData("queue-read", Scenario.QueueRead)]
    [InlineData("queue-mixed", Scenario.QueueMixed)]
    public void NamesParseAndDoubleAsTags(string name, Scenario scenario)
    {
        Assert.Equal(scenario, Scenarios.Parse(name));
        Assert.All(AmmoGenerator.Generate(Options(scenario)), r => Assert.Equal(name, r.Tag));
    }

    [Fact]
    public void QueueWriteIsABodilessGetOfWrite() =>
        Assert.All(Requests(Options(Scenario.QueueWrite)),
            r => Assert.Equal("GET /write/beanstalkd HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", r));

    [Fact]
    public void QueueReadIsAGetOfRead() =>
        Assert.All(Requests(Options(Scenario.QueueRead, "tarantool-vinyl")),
            r => Assert.Equal("GET /read/tarantool-vinyl HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", r));

    [Fact]
    public void QueueMixedStrictlyAlternatesStartingWithAWrite()
    {
        var uris = AmmoGenerator.Generate(Options(Scenario.QueueMixed, "redis_aof", count: 1001)).Select(r => r.Spec.Uri).ToList();
        Assert.Equal(1001, uris.Count);
        for (var i = 0; i < uris.Count; i++) Assert.Equal(i % 2 == 0 ? "/write/redis_aof" : "/read/redis_aof", uris[i]);
    }

    [Fact]
    public void TheQueueIsPathEscaped() =>
        Assert.Equal(["/write/a%20b%2Fc%3F", "/read/a%20b%2Fc%3F"],
            AmmoGenerator.Generate(Options(Scenario.QueueMixed, "a b/c?", count: 2)).Select(r => r.Spec.Uri));

    [Theory]
    [InlineData(Scenario.QueueWrite)]
    [InlineData(Scenario.QueueRead)]
    [InlineData(Scenario.QueueMixed)]
    public void UriAndPhantomHoldTheSameRequestsAndUripostIsRefused(Scenario scenario)
    {
        Assert.True(scenario.Allows(AmmoFormat.Uri));
        Assert.True(scenario.Allows(AmmoFormat.Phantom));
        Assert.False(scenario.Allows(AmmoFormat.UriPost));
        var expected = AmmoGenerator.Generate(Options(scenario)).Select(r => r.Spec.Encode()).ToList();
        foreach (var format in new[] { AmmoFormat.Uri, AmmoFormat.Phantom })
        {
            using var stream = new MemoryStream();
            AmmoWriter.Write(stream, format, AmmoGenerator.Generate(Options(scenario)));
            Assert.Equal(expected, AmmoReader.Parse(stream.ToArray(), "ammo.txt", format).Select(r => r.Bytes));
        }
    }

    [Fact]
    public void TankAmmoWritesQueueScenariosAndIgnoresOptionsQueuesDoNotUse()
    {
        var dir = Directory.CreateTempSubdirectory("tank-queue-ammo-").FullName;
        try
        {
            var phantom = Path.Combine(dir, "write.ammo");
            Assert.Equal(0, TankCli.Run(["ammo", "--scenario", "queue-write", "--storage", "beanstalkd", "--count", "2",
                "--items", "10", "--locations", "10", "--author-ids", "1-5", "--hot-key", "--out", phantom]));
            const string request = "GET /write/beanstalkd HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";
            Assert.Equal($"{request.Length} queue-write\n{request}\n{request.Length} queue-write\n{request}\n", File.ReadAllText(phantom));

            var uri = Path.Combine(dir, "mixed.uri");
            Assert.Equal(0, TankCli.Run(["ammo", "--scenario", "queue-mixed", "--storage", "postgres", "--host", "h:1",
                "--count", "3", "--format", "uri", "--out", uri]));
            Assert.Equal("[Host: h:1]\n/write/postgres queue-mixed\n/read/postgres queue-mixed\n/write/postgres queue-mixed\n", File.ReadAllText(uri));

            var error = new StringWriter();
            Assert.Equal(Cli.InputError, TankCli.Run(["ammo", "--scenario", "queue-read",
                "--storage", "beanstalkd", "--format", "uripost", "--out", Path.Combine(dir, "x")], TextWriter.Null, error));
            Assert.Contains("tank: error: scenario queue-read cannot be written as uripost", error.ToString());
            Assert.False(File.Exists(Path.Combine(dir, "x")));
        }
        finally { Directory.Delete(dir, recursive: true); }
    }
}
