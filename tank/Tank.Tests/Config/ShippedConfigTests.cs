using Tank.Config;

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
        Assert.Equal("rps", config.LoadType);
        Assert.Equal("1.1", config.HeaderHttp);
        Assert.NotEmpty(config.Autostop);
    }

    [Fact]
    public void ShootexecConfigHasNoActivePhantom()
    {
        var error = Assert.Throws<TankInputException>(() => LoadConfigReader.Read(Path.Combine(TankDir(), "configs", "shootexec.yaml")));
        Assert.Contains("phantom section is disabled", error.Message);
    }
}
