using Crash.Control;
using Crash.Matrix;

namespace Crash.Tests;

/// <summary>Every fault of the table is carried out by crash itself, and each tests a promise.</summary>
public sealed class FaultVocabularyTests
{
    [Fact]
    public void EveryFaultOfTheTableHasItsAction() =>
        Assert.All(Faults.All, f => Assert.Equal(typeof(ServerFaults), f.Run.Method.DeclaringType));

    [Fact]
    public void TheDefaultFaultsAreInTheTableAndEachTestsAPromise()
    {
        Assert.All(Faults.Default, name => Assert.NotNull(Faults.Find(name)));
        Assert.Equal(Promise.PowerLoss, Faults.Find("power-loss")!.Promise);
        Assert.Equal(Promise.Failover, Faults.Find("primary-kill")!.Promise);
        Assert.All(Faults.All.Where(f => f.Name.StartsWith("primary-", StringComparison.Ordinal)), f => Assert.Equal(Promise.Failover, f.Promise));
        Assert.All(Faults.All.Where(f => f.Name != "power-loss" && !f.Name.StartsWith("primary-", StringComparison.Ordinal)), f => Assert.Equal(Promise.ProcessCrash, f.Promise));
    }
}
