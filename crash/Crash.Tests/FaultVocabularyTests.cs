using Crash.Matrix;

namespace Crash.Tests;

/// <summary>The fault table and the script that carries the faults out name the same faults.</summary>
public sealed class FaultVocabularyTests
{
    private static string Script()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var path = Path.Combine(dir.FullName, "script", "crashtest");
            if (File.Exists(path)) return File.ReadAllText(path);
        }
        throw new InvalidOperationException("script/crashtest not found above the test binaries");
    }

    [Fact]
    public void EveryFaultOfTheTableHasItsCaseInScriptCrashtestInject()
    {
        var inject = Script().Split("if [ \"${1:-}\" = --inject ]")[1].Split("\nfi\n")[0];
        foreach (var fault in Faults.All) Assert.Contains($"\n    {fault.Name})", inject);
    }

    [Fact]
    public void TheDefaultFaultsAreInTheTableAndEachTestsAPromise()
    {
        Assert.All(Faults.Default, name => Assert.NotNull(Faults.Find(name)));
        Assert.Equal(Promise.PowerLoss, Faults.Find("power-loss")!.Promise);
        Assert.All(Faults.All.Where(f => f.Name != "power-loss"), f => Assert.Equal(Promise.ProcessCrash, f.Promise));
    }
}
