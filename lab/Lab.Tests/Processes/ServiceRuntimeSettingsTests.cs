using Harness.Processes;

namespace Lab.Tests.Processes;

/// <summary>
/// The service's runtime settings (IntegrationService/runtime.env): what the service starts with
/// wherever a tool starts it, and never the tool's own gen0 budget.
/// </summary>
public sealed class ServiceRuntimeSettingsTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("runtime-env-").FullName;

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    [Fact]
    public void TheServiceStartsWithItsOwnGen0BudgetNotTheToolsOne()
    {
        var dll = Path.Combine(_dir, "IntegrationService.dll");
        File.WriteAllLines(Path.Combine(_dir, ServiceRuntimeSettings.FileName), ["# a comment", "", "DOTNET_GCgen0size=0x4000000", "  DOTNET_TieredPGO=0  "]);
        var environment = new Dictionary<string, string?> { ["DOTNET_GCgen0size"] = "0x800000", ["PATH"] = "/usr/bin" };

        ServiceProcess.SetEnvironment(environment, dll);

        Assert.Equal("0x4000000", environment["DOTNET_GCgen0size"]);
        Assert.Equal("0", environment["DOTNET_TieredPGO"]);
        Assert.Equal("/usr/bin", environment["PATH"]);
    }

    [Fact]
    public void WithoutARuntimeFileTheToolsGen0BudgetStillStaysTheTools()
    {
        var environment = new Dictionary<string, string?> { ["DOTNET_GCgen0size"] = "0x800000" };

        ServiceProcess.SetEnvironment(environment, Path.Combine(_dir, "IntegrationService.dll"));

        Assert.False(environment.ContainsKey("DOTNET_GCgen0size"));
    }

    [Theory]
    [InlineData("DOTNET_GCgen0size")]
    [InlineData("=0x4000000")]
    [InlineData("1DOTNET=1")]
    [InlineData("DOTNET GCgen0size=1")]
    public void ALineThatIsNotNameEqualsValueIsAnError(string line)
    {
        var error = Assert.Throws<FormatException>(() => ServiceRuntimeSettings.Parse(["# fine", line], "runtime.env"));
        Assert.Contains($"runtime.env:2: '{line}'", error.Message);
    }

    /// <summary>The service as the tools start it (bench, crash, siege): its process runs with the budget of its build's runtime.env.</summary>
    [Fact]
    public void TheStartedServiceProcessRunsWithItsRuntimeSettings()
    {
        var built = BuiltService(out _);
        using var service = ServiceProcess.Start(built, "http://127.0.0.1:0", Path.Combine(_dir, "service.log"));
        var environment = File.ReadAllText($"/proc/{service.Pid}/environ").Split('\0');
        Assert.Contains("DOTNET_GCgen0size=0x4000000", environment);
    }

    /// <summary>The file the service is built with sets the gen0 budget docs/BENCHMARKS.md measured, and the build copies it beside the DLL.</summary>
    [Fact]
    public void TheServicesBuildCarriesItsGen0Budget()
    {
        var built = BuiltService(out var root);
        var source = ServiceRuntimeSettings.Parse(File.ReadAllLines(Path.Combine(root, "IntegrationService", ServiceRuntimeSettings.FileName)), "runtime.env");
        Assert.Contains(new KeyValuePair<string, string>("DOTNET_GCgen0size", "0x4000000"), source);
        Assert.Equal(source, ServiceRuntimeSettings.Read(built));
    }

    // The service's build in this test assembly's configuration and framework (Lab.Tests builds it).
    private static string BuiltService(out string root)
    {
        var here = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd('/')); // …/lab/Lab.Tests/bin/<configuration>/<framework>
        root = here.Parent!.Parent!.Parent!.Parent!.Parent!.FullName;
        var built = Path.Combine(root, "IntegrationService", "bin", here.Parent!.Name, here.Name, "IntegrationService.dll");
        Assert.True(File.Exists(built), $"{built} was not built");
        return built;
    }
}
