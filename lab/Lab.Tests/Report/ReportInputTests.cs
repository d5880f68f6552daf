using Harness.CommandLine;
using Lab.Report;

namespace Lab.Tests.Report;

/// <summary>A run directory's runs: one per architecture and scenario.</summary>
public sealed class ReportInputTests
{
    [Fact]
    public void TwoRunsOfOneArchitectureAndScenarioAreRefusedByName()
    {
        using var dir = new RunDirectory();
        var first = dir.Run("postgres", "author-read", 2, _ => 10, _ => 2, "const(10, 2s)");
        var second = dir.Run("postgres", "author-read", 2, _ => 10, _ => 2, "const(10, 2s)", under: "runs/copy");

        var e = Assert.Throws<InputException>(() => ReportBuilder.Build(dir.Path, 10));

        Assert.Contains(Path.GetRelativePath(dir.Path, first), e.Message);
        Assert.Contains(Path.GetRelativePath(dir.Path, second), e.Message);
        Assert.Contains("postgres · author-read", e.Message);
        Assert.False(File.Exists(Path.Combine(dir.Path, "summary.json")));
    }

    [Fact]
    public void RunsOfOneArchitectureWithDifferentScenariosAreEachReported()
    {
        using var dir = new RunDirectory();
        dir.Run("postgres", "author-read", 2, _ => 10, _ => 2, "const(10, 2s)");
        dir.Run("postgres", "author-write", 2, _ => 10, _ => 2, "const(10, 2s)");

        Assert.Equal(2, ReportBuilder.Build(dir.Path, 10).Count);
    }
}
