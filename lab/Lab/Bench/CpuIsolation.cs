using System.Globalization;
using Harness;
using Tank.Cpu;

namespace Lab.Bench;

/// <summary>
/// Where a bench run's processes may run. <c>--pin</c>: the generator (this process, the runner
/// inside it) on the first core, the service and the cells' servers on the others, so neither
/// takes the other's core. <c>--throttle server=cores</c>: a server held to a CPU quota, the
/// slowed-down stack that shows whether a comparison notices a regression. Both are cgroup v1
/// groups removed at the end of the run (<see cref="CpuGroup"/>).
/// </summary>
public sealed class CpuIsolation : IDisposable
{
    private readonly List<CpuGroup> _groups = [];
    private readonly IReadOnlyDictionary<string, double> _throttles;
    private CpuGroup? _generator;
    private CpuGroup? _measured;

    private CpuIsolation(IReadOnlyDictionary<string, double> throttles) => _throttles = throttles;

    /// <summary>The generator's core with --pin; null without.</summary>
    public string? GeneratorCpus { get; private set; }

    /// <summary>The cores of the service and its servers with --pin; null without.</summary>
    public string? MeasuredCpus { get; private set; }

    /// <summary>
    /// Before the service starts: with --pin, this process (the generator) goes to the first core;
    /// the service it starts next follows it there until <see cref="Place"/> moves it.
    /// </summary>
    public static CpuIsolation Start(BenchOptions options)
    {
        var isolation = new CpuIsolation(options.Throttles);
        try
        {
            if (options.Pin) isolation.Pin();
            return isolation;
        }
        catch
        {
            isolation.Dispose();
            throw;
        }
    }

    private void Pin()
    {
        var cpus = CpuGroup.AvailableCpus();
        if (cpus.Count < 2) throw new InvalidOperationException($"--pin needs two cores or more; this process may use {cpus.Count}");
        GeneratorCpus = cpus[0].ToString(CultureInfo.InvariantCulture);
        MeasuredCpus = string.Join(',', cpus.Skip(1));
        _generator = Keep(CpuGroup.Cores($"integrationservice-bench-{Environment.ProcessId}-generator", GeneratorCpus));
        _measured = Keep(CpuGroup.Cores($"integrationservice-bench-{Environment.ProcessId}-measured", MeasuredCpus));
        _generator.Add(Environment.ProcessId);
    }

    /// <summary>
    /// Once the service and the servers run: with --pin the service and every server process (with
    /// its children) to the measured cores; each throttled server to its quota.
    /// </summary>
    public void Place(IReadOnlyList<CpuTarget> measured, string root, CancellationToken cancel)
    {
        if (_measured is not null)
        {
            foreach (var target in measured) _measured.AddTree(target.Pid);
            ToolLog.Write($"--pin: the generator on CPU {GeneratorCpus}, the service and its servers ({string.Join(", ", measured.Select(t => t.Name))}) on CPU {MeasuredCpus}");
        }
        foreach (var (server, cores) in _throttles)
        {
            var processes = CpuTargets.Server(server, root, cancel).ToList();
            if (processes.Count == 0) throw new InvalidOperationException($"--throttle {server}: no such server is running (script/services names)");
            var group = Keep(CpuGroup.Quota($"integrationservice-bench-{Environment.ProcessId}-{server}", cores));
            foreach (var process in processes) group.AddTree(process.Pid);
            ToolLog.Write(string.Create(CultureInfo.InvariantCulture, $"--throttle: {server} held to {cores} cores (cgroup {group.Path})"));
        }
    }

    public void Dispose()
    {
        foreach (var group in _groups) group.Dispose();
    }

    private CpuGroup Keep(CpuGroup group)
    {
        _groups.Add(group);
        return group;
    }
}
