using Tank.Config;
using Harness.CommandLine;

namespace Tank.Tests.Config;

/// <summary>Every config we ship must pass the same strict checks a user's would.</summary>
public sealed class ShippedConfigTests
{
    private static string TankDir()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "tank", "load.yaml"))) return Path.Combine(dir.FullName, "tank");
        throw new InvalidOperationException("tank/load.yaml not found above the test binaries");
    }

    public static TheoryData<string> PhantomConfigs() =>
        new(new[] { "load.yaml" }.Concat(Directory.GetFiles(Path.Combine(TankDir(), "configs"), "*.yaml")
            .Select(Path.GetFileName).Where(f => f != "shootexec.yaml").Select(f => "configs/" + f)));

    [Theory]
    [MemberData(nameof(PhantomConfigs))]
    public void ShippedConfigIsValid(string relative)
    {
        var config = LoadConfigReader.Read(Path.Combine(TankDir(), relative));
        // The prefill is a closed loop over its ammo, once; every measured config is open-model.
        Assert.Equal(relative == "configs/kv-prefill.yaml" ? "instances" : "rps", config.LoadType);
        Assert.Equal("1.1", config.HeaderHttp);
        Assert.NotEmpty(config.Autostop);
    }

    [Theory]
    [InlineData("queue-write")]
    [InlineData("queue-read")]
    [InlineData("queue-mixed")]
    public void EveryQueueScenarioHasAConfigForItsOwnAmmo(string scenario)
    {
        var config = LoadConfigReader.Read(Path.Combine(TankDir(), "configs", scenario + ".yaml"));
        Assert.Equal($"ammo/{scenario}.ammo", config.AmmoFile);
        Assert.Equal(Tank.Ammo.AmmoFormat.Phantom, config.AmmoType);
        Assert.Contains(config.Autostop, a => a.Text.StartsWith("limit(", StringComparison.Ordinal));
        // An empty queue answers 204 at once: a read run stops when its queue has run dry.
        Assert.Equal(scenario == "queue-read", config.Autostop.Any(a => a.Text == "http(204,10%,5s)"));
    }

    [Theory]
    [InlineData("kv-put")]
    [InlineData("kv-get")]
    public void EveryKvScenarioHasAConfigForItsOwnAmmo(string scenario)
    {
        var config = LoadConfigReader.Read(Path.Combine(TankDir(), "configs", scenario + ".yaml"));
        Assert.Equal($"ammo/{scenario}.ammo", config.AmmoFile);
        Assert.Equal(Tank.Ammo.AmmoFormat.Phantom, config.AmmoType);
        // A GET of a key that was never written is 404: a kv-get run on an unfilled store stops.
        Assert.Equal(scenario == "kv-get", config.Autostop.Any(a => a.Text == "http(4xx,10%,10s)"));
    }

    [Fact]
    public void KvPrefillWritesTheAmmoOnce()
    {
        var config = LoadConfigReader.Read(Path.Combine(TankDir(), "configs", "kv-prefill.yaml"));
        Assert.Equal(1, config.Loop);
        Assert.Equal(64, config.Instances);
    }

    [Fact]
    public void ShootexecConfigHasNoActivePhantom()
    {
        var error = Assert.Throws<InputException>(() => LoadConfigReader.Read(Path.Combine(TankDir(), "configs", "shootexec.yaml")));
        Assert.Contains("phantom section is disabled", error.Message);
    }
}
