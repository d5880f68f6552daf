using Harness.Processes;

namespace Lab.Tests.Commands;

/// <summary>
/// The two executables as a user runs them (<c>dotnet tank.dll</c>, <c>dotnet lab.dll</c>), from the
/// same build as these tests: each starts, finds its own library and answers --help.
/// </summary>
public sealed class ExecutableTests
{
    [Theory]
    [InlineData("tank/Tank.Cli", "tank.dll", "run")]
    [InlineData("lab/Lab.Cli", "lab.dll", "bench")]
    public void TheExecutableStartsAndListsItsCommands(string project, string dll, string command)
    {
        var result = ProcessRunner.Run("dotnet", [Built(project, dll), "--help"], CancellationToken.None);
        Assert.True(result.ExitCode == 0, $"dotnet {dll} --help exited {result.ExitCode}: {result.Error}");
        Assert.Contains($"  {command}", result.Output);
    }

    // This test assembly's bin/<configuration>/<framework>, under the executable's project instead.
    private static string Built(string project, string dll)
    {
        var here = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd('/'));
        var framework = here.Name;
        var configuration = here.Parent!.Name;
        var root = here.Parent!.Parent!.Parent!.Parent!.Parent!.FullName; // …/lab/Lab.Tests/bin/<c>/<f>
        var path = Path.Combine(root, project, "bin", configuration, framework, dll);
        Assert.True(File.Exists(path), $"{path} was not built");
        return path;
    }
}
