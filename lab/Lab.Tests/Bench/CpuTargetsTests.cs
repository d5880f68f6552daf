using Lab.Bench;
using Tank.Cpu;

namespace Lab.Tests.Bench;

public sealed class CpuTargetsTests
{
    [Fact]
    public void AClustersNodeZeroIsTheServiceAndItsNodesOwnStoresAreKept()
    {
        // Every server of the store has a -node process, so script/services is not asked.
        var targets = CpuTargets.ForCluster("node0=101\ntarantool-node0=201\nnode1=102\ntarantool-node1=202\n", ["tarantool"], "/nowhere", CancellationToken.None);
        Assert.Equal([new CpuTarget("service", 101), new CpuTarget("tarantool-node0", 201), new CpuTarget("node1", 102), new CpuTarget("tarantool-node1", 202)], targets);
    }
}
