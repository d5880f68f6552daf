using System.Diagnostics;

namespace IntegrationService.Tests.Fixtures;

/// <summary>The checkout the tests run from, and its scripts (used to stop and start servers).</summary>
public static class RepositoryRoot
{
    public static string Path { get; } = Find();

    /// <summary>
    /// Runs <c>script/services --test &lt;verb&gt; &lt;name&gt;</c> on the tests' own instances
    /// (<see cref="TestServers"/>, whatever the environment says); fails the test if the script fails; returns its output.
    /// </summary>
    public static async Task<string> ServicesAsync(string verb, string name)
    {
        var (code, stdout, stderr) = await TryServicesAsync(verb, name);
        Assert.True(code == 0, $"script/services {verb} {name} failed: {stderr}");
        return stdout;
    }

    /// <summary>The same, for a question the script may answer no to (<c>status</c>, <c>primary</c> during an election): its exit code and output.</summary>
    public static async Task<(int Code, string Out, string Err)> TryServicesAsync(string verb, string name)
    {
        var start = new ProcessStartInfo(System.IO.Path.Combine(Path, "script", "services"), ["--test", verb, name])
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        };
        foreach (var (key, value) in TestServers.ScriptEnvironment) start.Environment[key] = value;
        using var process = Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        var stdout = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        return (process.ExitCode, stdout, await stderr);
    }

    private static string Find()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(dir.FullName, "IntegrationService.sln"))) return dir.FullName;
        }
        throw new InvalidOperationException("IntegrationService.sln not found above " + AppContext.BaseDirectory);
    }
}
