using System.Diagnostics;
using System.Globalization;
using Lab.Bench;
using Tank.Cpu;

namespace Lab.Tests.Bench;

/// <summary>
/// --pin end to end on the real cgroup v1 cpusets (root, as script/test runs): this process (the
/// generator) on the first core, a placed process on the others, and both back where they were once
/// the run's isolation is disposed.
/// </summary>
[Collection("cgroups")] // one at a time: pinning moves this test process itself
public sealed class CpuIsolationTests
{
    private static string GroupOf(int pid) =>
        File.ReadLines($"/proc/{pid}/cgroup").Select(l => l.Split(':', 3)).First(p => p[1].Split(',').Contains("cpuset"))[2];

    private static int[] AllowedCpus(int pid) =>
        CpuGroup.ParseCpuList(File.ReadLines($"/proc/{pid}/status").First(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal)).Split(':')[1]).ToArray();

    [Fact]
    public void PinPutsTheGeneratorOnTheFirstCoreAndThePlacedProcessesOnTheOthersAndDisposingUndoesBoth()
    {
        var cpus = CpuGroup.AvailableCpus();
        Assert.True(cpus.Count >= 2, $"--pin needs two cores; this machine lets the tests use {cpus.Count}");
        using var service = Process.Start(new ProcessStartInfo("sleep", ["30"]))!;
        var before = (GroupOf(Environment.ProcessId), GroupOf(service.Id));
        try
        {
            using (var isolation = CpuIsolation.Start(new BenchOptions { Pin = true, ServiceDll = "s.dll", Root = "/r" }))
            {
                Assert.Equal(cpus[0].ToString(CultureInfo.InvariantCulture), isolation.GeneratorCpus);
                Assert.EndsWith("-generator", GroupOf(Environment.ProcessId));
                Assert.Equal([cpus[0]], AllowedCpus(Environment.ProcessId));

                isolation.Place([new CpuTarget("service", service.Id)], "/r", CancellationToken.None);
                Assert.EndsWith("-measured", GroupOf(service.Id));
                Assert.Equal(cpus.Skip(1), AllowedCpus(service.Id));
            }
            Assert.Equal(before, (GroupOf(Environment.ProcessId), GroupOf(service.Id)));
            Assert.Contains(cpus[^1], AllowedCpus(Environment.ProcessId));
        }
        finally
        {
            service.Kill();
        }
    }

    [Fact]
    public void WithoutPinNothingMoves()
    {
        var before = GroupOf(Environment.ProcessId);
        using var isolation = CpuIsolation.Start(new BenchOptions { ServiceDll = "s.dll", Root = "/r" });
        isolation.Place([new CpuTarget("service", Environment.ProcessId)], "/r", CancellationToken.None);
        Assert.Null(isolation.GeneratorCpus);
        Assert.Equal(before, GroupOf(Environment.ProcessId));
    }
}
