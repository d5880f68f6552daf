using System.Diagnostics;

namespace IntegrationService.Tests.Fixtures;

/// <summary>
/// Runs one of the service's tools (<c>IntegrationService purge-queue …</c>) as the bench runs it:
/// a process of its own, configured by Section__Key variables for the test instances (never the
/// user's servers).
/// </summary>
public static class ServiceTool
{
    /// <summary>The exit code, standard output (trimmed) and standard error; fails the test after two minutes.</summary>
    public static async Task<(int Code, string Output, string Error)> RunAsync(params string[] args)
    {
        var start = new ProcessStartInfo("dotnet", [Path.Combine(AppContext.BaseDirectory, "IntegrationService.dll"), .. args])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        // --Postgres:ConnectionString=… becomes Postgres__ConnectionString=…: the tools read their settings from the environment.
        foreach (var argument in TestServers.ServiceArguments())
        {
            var (key, value) = (argument[2..argument.IndexOf('=')], argument[(argument.IndexOf('=') + 1)..]);
            start.Environment[key.Replace(":", "__", StringComparison.Ordinal)] = value;
        }
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEndAsync();
        var output = await process.StandardOutput.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, output.Trim(), await error);
    }
}
