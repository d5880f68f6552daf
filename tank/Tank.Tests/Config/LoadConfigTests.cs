using Tank.Ammo;
using Tank.Config;
using Harness.CommandLine;

namespace Tank.Tests.Config;

public sealed class LoadConfigTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("tank-config-").FullName;

    private const string Valid = """
        phantom:
          address: 127.0.0.1:8080
          ammofile: ammo.txt
          ammo_type: uripost
          header_http: "1.1"
          instances: 200
          timeout: 5s
          load_profile:
            load_type: rps
            schedule: line(1, 100, 2m) const(100, 5m)
        autostop:
          autostop:
            - quantile(99,100ms,10s)
            - http(5xx,10%,5s)
            - net(1xx,10,10)
            - limit(15m)
        telegraf:
          enabled: false
        """;

    private string Write(string yaml)
    {
        var path = Path.Combine(_dir, "load.yaml");
        File.WriteAllText(path, yaml);
        return path;
    }

    private InputException Fails(string yaml) => Assert.Throws<InputException>(() => LoadConfigReader.Read(Write(yaml)));

    [Fact]
    public void ReadsAValidConfig()
    {
        var config = LoadConfigReader.Read(Write(Valid));
        Assert.Equal("127.0.0.1:8080", config.Address);
        Assert.Equal(AmmoFormat.UriPost, config.AmmoType);
        Assert.Equal(200, config.Instances);
        Assert.Equal(5000, config.TimeoutMs);
        Assert.Equal("1.1", config.HeaderHttp);
        Assert.Equal(4, config.Autostop.Count);
        Assert.EndsWith("load.yaml:10", config.ScheduleSource);
    }

    [Fact]
    public void UnknownKeyIsRejectedWithItsLine()
    {
        var error = Fails(Valid.Replace("  instances: 200", "  instances: 200\n  rps_schedule: const(1, 1s)"));
        Assert.Contains("load.yaml: line 7, column 3: unknown key 'phantom.rps_schedule'", error.Message);
    }

    [Fact]
    public void UnknownSectionIsRejected() => Assert.Contains("unknown section 'phantomm'", Fails(Valid + "\nphantomm: {enabled: true}\n").Message);

    [Fact]
    public void CommaBetweenStepsIsRejected()
    {
        var error = Fails(Valid.Replace("line(1, 100, 2m) const(100, 5m)", "line(1, 100, 2m), const(100, 5m)"));
        Assert.Contains("load.yaml:10: column 17: steps are separated by spaces or newlines, not commas", error.Message);
    }

    [Fact]
    public void MillisecondDurationIsRejected() =>
        Assert.Contains("'500ms' is not a duration", Fails(Valid.Replace("const(100, 5m)", "const(100, 500ms)")).Message);

    [Fact]
    public void UnquotedHttpVersionIsAFloatNotAString() =>
        Assert.Contains("'phantom.header_http' must be a string", Fails(Valid.Replace("header_http: \"1.1\"", "header_http: 1.1")).Message);

    [Fact]
    public void QuotedInstancesIsNotAnInteger() =>
        Assert.Contains("'phantom.instances' must be an integer", Fails(Valid.Replace("instances: 200", "instances: \"200\"")).Message);

    [Fact]
    public void BadAutostopIsRejectedWithItsLine() =>
        Assert.Contains("load.yaml:13: autostop 'quantile(97,100ms,10s)'", Fails(Valid.Replace("quantile(99,", "quantile(97,")).Message);

    [Fact]
    public void AmmofileAndUrisTogetherAreRejected() =>
        Assert.Contains("exactly one of", Fails(Valid.Replace("  ammo_type: uripost", "  ammo_type: uripost\n  uris: [\"/\"]")).Message);

    public void Dispose() => Directory.Delete(_dir, recursive: true);
}
