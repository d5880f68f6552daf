using Lab.Bench;
using Tank.Commands;
using Harness.CommandLine;
using Lab.Commands;

namespace Lab.Tests.Bench;

/// <summary><c>lab bench</c>'s command line, as script/bench passes it through.</summary>
public sealed class BenchCommandTests
{
    private static BenchOptions Options(params string[] args)
    {
        var parse = LabCli.Parse(["bench", "--service-dll", "/r/IntegrationService.dll", .. args]);
        Assert.Empty(parse.Errors);
        return ((BenchCommand)parse.CommandResult.Command).OptionsOf(parse);
    }

    private static string Error(params string[] args)
    {
        var error = new StringWriter();
        Assert.Equal(Cli.InputError, LabCli.Run(["bench", .. args], TextWriter.Null, error));
        return error.ToString();
    }

    [Fact]
    public void DefaultsAreScriptBenchs()
    {
        var o = Options();
        Assert.Equal((false, 10.0, 1L, false, 0, 18080, 18180), (o.Quick, o.SloMs, o.Seed, o.CrossCheck, o.ClusterNodes, o.Port, o.ClusterPort));
        // Absent lists mean every architecture and the default scenarios, not none.
        Assert.Null(o.Storages);
        Assert.Null(o.Scenarios);
        Assert.Equal(("/r/IntegrationService.dll", Path.GetFullPath(".")), (o.ServiceDll, o.Root));
    }

    [Fact]
    public void ScriptBenchsOptionsComeThroughTyped()
    {
        var o = Options("--quick", "--storage", "postgres,redis_aof", "--scenario", "author-read,queue-read", "--slo-ms", "25", "--seed", "7",
            "--crosscheck", "--cluster", "3", "--root", "/r", "--port", "18091", "--cluster-port", "18190");
        Assert.Equal((true, 25.0, 7L, true, 3, "/r", 18091, 18190), (o.Quick, o.SloMs, o.Seed, o.CrossCheck, o.ClusterNodes, o.Root, o.Port, o.ClusterPort));
        Assert.Equal(["postgres", "redis_aof"], o.Storages!);
        Assert.Equal(["author-read", "queue-read"], o.Scenarios!);
        Assert.Null(o.Repeat);
        Assert.Equal(5, Options("--repeat", "5").Repeat);
    }

    [Fact]
    public void PinAndThrottleComeThroughTyped()
    {
        Assert.False(Options().Pin);
        Assert.Empty(Options().Throttles);
        var o = Options("--pin", "--throttle", "tarantool=0.25,postgres=1.5");
        Assert.True(o.Pin);
        Assert.Equal(new Dictionary<string, double> { ["tarantool"] = 0.25, ["postgres"] = 1.5 }, o.Throttles);
    }

    [Theory]
    [InlineData("--throttle", "tarantool", "--throttle: 'tarantool' is not server=cores")]
    [InlineData("--throttle", "tarantool=0", "--throttle: 'tarantool=0': the cores must be a number above zero")]
    [InlineData("--throttle", "=0.5", "--throttle: '=0.5' is not server=cores")]
    [InlineData("--throttle", "redis-aof=1,redis-aof=2", "--throttle: redis-aof is named twice")]
    [InlineData("--cluster", "1", "--cluster: '1' must be at least 2")]
    [InlineData("--storage", "postgres,,redis-aof", "--storage: 'postgres,,redis-aof' is not a comma-separated list of names")]
    [InlineData("--slo-ms", "0", "--slo-ms: '0' must be above zero")]
    [InlineData("--port", "80", "--port: '80' must be at least 1024")]
    [InlineData("--repeat", "0", "--repeat: '0' must be above zero")]
    public void BadValuesAreInputErrors(string option, string value, string message) =>
        Assert.Contains($"lab: error: {message}", Error("--service-dll", "s.dll", option, value));

    [Fact]
    public void TheServiceDllIsRequired() => Assert.Contains("--service-dll", Error("--quick"));
}
