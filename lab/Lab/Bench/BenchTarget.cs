using Tank.Cpu;

namespace Lab.Bench;

/// <summary>
/// Where the load goes: the single service, or node 0 of a sharded cluster (<see cref="Nodes"/> &gt; 1);
/// the client for its side calls, and the processes whose CPU its runs account for.
/// </summary>
public sealed record BenchTarget(string Address, ServiceClient Client, IReadOnlyList<CpuTarget> Cpu, int Nodes = 0);
