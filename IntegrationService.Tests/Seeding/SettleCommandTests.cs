using System.Diagnostics;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Seeding;

/// <summary>
/// <c>IntegrationService settle</c> on the test instances, run as the bench runs it (a process
/// configured by Section__Key variables): both servers settle; a server that is not there is
/// reported and skipped, and the command still succeeds (the bench measures anyway).
/// </summary>
public sealed class SettleCommandTests
{
    private static async Task<(int Code, string Output, string Error)> SettleAsync(int tarantoolPort, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet", [Path.Combine(AppContext.BaseDirectory, "IntegrationService.dll"), "settle", .. args])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        // The test instances' settings, as environment variables (--Postgres:ConnectionString=… → Postgres__ConnectionString).
        foreach (var argument in TestServers.ServiceArguments())
        {
            var (key, value) = (argument[2..argument.IndexOf('=')], argument[(argument.IndexOf('=') + 1)..]);
            start.Environment[key.Replace(":", "__", StringComparison.Ordinal)] = value;
        }
        start.Environment["Tarantool__Port"] = tarantoolPort.ToString();
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEndAsync();
        var output = await process.StandardOutput.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(120));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, output.Trim(), await error);
    }

    [Fact]
    public async Task BothServersSettle()
    {
        var (code, output, error) = await SettleAsync(TestServers.TarantoolPort, "--vacuum");
        Assert.True(code == 0, error);
        Assert.Equal("{\"postgres\":true,\"tarantool\":true}", output);
    }

    [Fact]
    public async Task OnlyTheNamedServersSettleAndTheOthersHaveNothingToSettle()
    {
        // Tarantool's port would fail it: the bench's list without tarantool never tries it.
        var (code, output, error) = await SettleAsync(1, "--only", "postgres,redis-aof,nats-r3");
        Assert.True(code == 0, error);
        Assert.Equal("{\"postgres\":true}", output);
        Assert.DoesNotContain("Tarantool", error);
        (code, output, error) = await SettleAsync(1, "--only", "rabbitmq");
        Assert.True(code == 0, error);
        Assert.Equal("{}", output);
    }

    [Fact]
    public async Task AServerTheCatalogueDoesNotKnowIsBadInput()
    {
        var (code, output, error) = await SettleAsync(TestServers.TarantoolPort, "--only", "postgres,nope");
        Assert.Equal(2, code);
        Assert.Equal("", output);
        Assert.Contains("--only: 'nope' is no server of the catalogue (known: beanstalkd, nats,", error);
    }

    [Fact]
    public async Task AServerThatIsNotThereIsReportedAndSkipped()
    {
        // Nothing listens on port 1.
        var (code, output, error) = await SettleAsync(1);
        Assert.Equal(0, code);
        Assert.Equal("{\"postgres\":true,\"tarantool\":false}", output);
        Assert.Contains("settle: Tarantool did not settle", error);
    }
}
