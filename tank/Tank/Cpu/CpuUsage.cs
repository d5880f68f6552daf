namespace Tank.Cpu;

/// <summary>CPU seconds one process (with its children) used during the measured part of a run.</summary>
public sealed record CpuUsage(string Name, int Pid, double Seconds);
