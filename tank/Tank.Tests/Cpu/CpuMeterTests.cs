using Tank.Cpu;

namespace Tank.Tests.Cpu;

/// <summary>CpuMeter against a fake /proc: a postmaster whose backends come and go.</summary>
public sealed class CpuMeterTests : IDisposable
{
    private readonly string _proc = Directory.CreateTempSubdirectory("tank-proc-").FullName;

    public void Dispose() => Directory.Delete(_proc, recursive: true);

    private void Process(int pid, int parent, long user, long system, long childUser = 0, long childSystem = 0, string name = "postgres")
    {
        Directory.CreateDirectory(Path.Combine(_proc, pid.ToString()));
        File.WriteAllText(Path.Combine(_proc, pid.ToString(), "stat"),
            $"{pid} ({name}) S {parent} {pid} {pid} 0 -1 0 0 0 0 0 {user} {system} {childUser} {childSystem} 20 0 1 0 1 1 1 0\n");
    }

    private void Gone(int pid) => Directory.Delete(Path.Combine(_proc, pid.ToString()), recursive: true);

    [Fact]
    public void ATreeCountsItselfItsReapedChildrenAndEveryLiveDescendant()
    {
        Process(100, 1, user: 10, system: 5, childUser: 7, childSystem: 3);
        Process(101, 100, user: 20, system: 2);
        Process(102, 101, user: 1, system: 1);  // a grandchild
        Process(200, 1, user: 500, system: 500); // not in the tree
        Directory.CreateDirectory(Path.Combine(_proc, "self")); // non-numeric entries are skipped
        var meter = new CpuMeter([new CpuTarget("postgresql", 100)], _proc);
        Assert.Equal(10 + 5 + 7 + 3 + 20 + 2 + 1 + 1, meter.Read()["postgresql"]);
    }

    [Fact]
    public void ABackendThatExitsDuringTheRunIsCountedOnceThroughItsParentsReapedTime()
    {
        Process(100, 1, user: 10, system: 0);
        Process(101, 100, user: 30, system: 10);
        var meter = new CpuMeter([new CpuTarget("postgresql", 100)], _proc);
        meter.Start();
        // The backend worked 20 more ticks, exited and was reaped; a new one started and used 5.
        Gone(101);
        Process(100, 1, user: 12, system: 0, childUser: 50, childSystem: 10);
        Process(103, 100, user: 4, system: 1);
        var (usage, _) = meter.Stop();
        var postgres = Assert.Single(usage);
        Assert.Equal((2 + 20 + 5) / CpuMeter.TicksPerSecond, postgres.Seconds, 6);
    }

    [Fact]
    public void AChildThatIsATargetOfItsOwnIsNotCountedInItsParentsTree()
    {
        // The lab (the generator, "tank") starts the service as its child; each is charged its own CPU once.
        Process(100, 1, user: 10, system: 5, name: "dotnet");
        Process(101, 100, user: 40, system: 20, name: "dotnet");  // the service
        Process(102, 101, user: 3, system: 0, name: "helper");    // the service's own child stays the service's
        Process(103, 100, user: 1, system: 1, name: "settle");    // a child that is no target stays the lab's
        var meter = new CpuMeter([new CpuTarget("tank", 100), new CpuTarget("service", 101)], _proc);
        var ticks = meter.Read();
        Assert.Equal(10 + 5 + 1 + 1, ticks["tank"]);
        Assert.Equal(40 + 20 + 3, ticks["service"]);
    }

    [Fact]
    public void AProcessThatIsNotThereIsLeftOutRatherThanCountedAsZero()
    {
        Process(100, 1, user: 10, system: 0);
        var meter = new CpuMeter([new CpuTarget("postgresql", 100), new CpuTarget("redis", 999)], _proc);
        meter.Start();
        Process(100, 1, user: 30, system: 0);
        var (usage, wall) = meter.Stop();
        Assert.Equal("postgresql", Assert.Single(usage).Name);
        Assert.Equal(0.2, usage[0].Seconds, 6);
        Assert.True(wall >= 0);
    }

    [Fact]
    public void TheRealProcReadsThisProcess()
    {
        if (!File.Exists("/proc/self/stat")) return;
        var meter = new CpuMeter([new CpuTarget("me", Environment.ProcessId)]);
        Assert.NotNull(meter.Read()["me"]);
    }
}
