using Tank.Commands;
using Lab.Tools;
using Harness.CommandLine;
using Lab.Commands;

namespace Lab.Tests.Tools;

/// <summary>lab siege's command line as script/siege passes it; parse only, nothing runs.</summary>
public sealed class SiegeCommandTests
{
    private static SiegeSettings? Settings(params string[] args)
    {
        var parse = LabCli.Parse(["siege", .. args]);
        Assert.Empty(parse.Errors);
        return ((SiegeCommand)parse.CommandResult.Command).SettingsOf(parse);
    }

    [Fact]
    public void TheStudysMatrixByDefault()
    {
        var settings = Settings("--url", "http://127.0.0.1:18090/", "--out", "reports/siege-x")!;

        Assert.Equal(("http://127.0.0.1:18090", null, 30, "close", "reports/siege-x"), (settings.Url, settings.Queues, settings.Seconds, settings.Connection, settings.Out));
        Assert.Equal([10, 25, 50, 100, 1000], settings.Concurrencies);
    }

    [Fact]
    public void QuickAndExplicitValues()
    {
        var quick = Settings("--url", "http://h:1", "--out", "o", "--quick", "--concurrency", "5,7", "--queue", "redis_aof,postgres", "--connection", "keep-alive")!;

        Assert.Equal([5, 7], quick.Concurrencies);
        Assert.Equal((3, "keep-alive"), (quick.Seconds, quick.Connection));
        Assert.Equal(["redis_aof", "postgres"], quick.Queues!);
        Assert.Equal(SiegeSettings.QuickConcurrencies, Settings("--url", "http://h:1", "--out", "o", "--quick")!.Concurrencies);
        Assert.Equal(4, Settings("--url", "http://h:1", "--out", "o", "--quick", "--seconds", "4")!.Seconds);
    }

    [Fact]
    public void WithTheServiceDllTheRunIsAgainstTheServiceItStartsOnItsPort()
    {
        Assert.Equal("http://127.0.0.1:18090", Settings("--service-dll", "IntegrationService.dll", "--out", "o")!.Url);
        Assert.Equal("http://127.0.0.1:19190", Settings("--service-dll", "IntegrationService.dll", "--port", "19190", "--out", "o")!.Url);
    }

    [Fact]
    public void WithoutOutTheRunGoesToASiegeFolderOfTheReports() =>
        Assert.Matches(@"^reports/siege-\d{8}T\d{6}Z$", Settings("--url", "http://h:1", "--reports", "reports")!.Out);

    [Fact]
    public void ReportNeedsNoUrl() => Assert.Null(Settings("--report", "reports/siege-x"));

    [Theory]
    [InlineData(new[] { "--out", "o" }, "--url is required")]
    [InlineData(new[] { "--url", "http://h:1" }, "--out or --reports is required")]
    [InlineData(new[] { "--url", "http://h:1", "--out", "o", "--report", "r" }, "takes no --url")]
    [InlineData(new[] { "--service-dll", "s.dll", "--out", "o", "--report", "r" }, "takes no --url or --service-dll")]
    [InlineData(new[] { "--url", "http://h:1", "--service-dll", "s.dll", "--out", "o" }, "not both")]
    public void MissingOrConflictingOptionsAreInputErrors(string[] args, string message) =>
        Assert.Contains(message, Assert.Throws<InputException>(() => Settings(args)).Message);

    [Theory]
    [InlineData("--concurrency", "10,x", "--concurrency takes positive whole numbers, not 'x'")]
    [InlineData("--concurrency", "0", "--concurrency takes positive whole numbers, not '0'")]
    [InlineData("--queue", "a,,b", "--queue: 'a,,b' is not a comma-separated list of names")]
    [InlineData("--connection", "pipelined", "--connection: 'pipelined' is not one of close, keep-alive")]
    public void BadValuesAreParseErrors(string option, string value, string message)
    {
        var error = new StringWriter();
        Assert.Equal(Cli.InputError, LabCli.Run(["siege", "--url", "http://h:1", "--out", "o", option, value], TextWriter.Null, error));
        Assert.Contains(message, error.ToString());
    }
}
