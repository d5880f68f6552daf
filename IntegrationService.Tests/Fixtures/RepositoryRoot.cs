using System.Diagnostics;

namespace IntegrationService.Tests.Fixtures;

/// <summary>The checkout the tests run from, and its scripts (used to stop and start servers).</summary>
public static class RepositoryRoot
{
    public static string Path { get; } = Find();

    /// <summary>Runs <c>script/services &lt;verb&gt; &lt;name&gt;</c>; fails the test if the script fails.</summary>
    public static async Task ServicesAsync(string verb, string name)
    {
        using var process = Process.Start(new ProcessStartInfo(System.IO.Path.Combine(Path, "script", "services"), [verb, name])
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        })!;
        var stderr = process.StandardError.ReadToEndAsync();
        await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        Assert.True(process.ExitCode == 0, $"script/services {verb} {name} failed: {await stderr}");
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
