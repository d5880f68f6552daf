using System.Diagnostics;

namespace IntegrationService.Tests.Fixtures;

/// <summary>Runs a command-line tool for a test (redis-cli, tarantool, kill, …).</summary>
public static class Processes
{
    /// <summary>The tool's standard output, trimmed; fails the test if it exits non-zero or takes over 20 s.</summary>
    public static async Task<string> RunAsync(string file, params string[] arguments)
    {
        using var process = Process.Start(new ProcessStartInfo(file, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
        })!;
        process.StandardInput.Close();
        var stderr = process.StandardError.ReadToEndAsync();
        var output = await process.StandardOutput.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        await process.WaitForExitAsync(timeout.Token);
        Assert.True(process.ExitCode == 0, $"{file} {string.Join(' ', arguments)} failed ({process.ExitCode}): {await stderr}");
        return output.Trim();
    }
}
