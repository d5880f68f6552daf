using Harness.CommandLine;
using IntegrationService.Seeding;

namespace Tank.Ammo.Workloads;

/// <summary>YCSB's core workloads (E, the scans, has no counterpart in these APIs).</summary>
public enum Workload { YcsbA, YcsbB, YcsbC, YcsbD, YcsbF }

public static class YcsbWorkloads
{
    public static readonly string[] Names = ["ycsb-a", "ycsb-b", "ycsb-c", "ycsb-d", "ycsb-f"];

    public static Workload Parse(string text) => Array.IndexOf(Names, text) is var i and >= 0
        ? (Workload)i
        : throw new InputException($"unknown workload '{text}' (expected {string.Join(", ", Names)})");

    public static string Name(this Workload workload) => Names[(int)workload];

    /// <summary>YCSB's proportions: A 50/50 read/update, B 95/5, C reads only, D 95 read/5 insert, F 50 read/50 read-modify-write.</summary>
    public static Operation Pick(this Workload workload, SplitMix64 random) => workload switch
    {
        Workload.YcsbA => random.Chance(0.5) ? Operation.Read : Operation.Update,
        Workload.YcsbB => random.Chance(0.95) ? Operation.Read : Operation.Update,
        Workload.YcsbD => random.Chance(0.95) ? Operation.Read : Operation.Insert,
        Workload.YcsbF => random.Chance(0.5) ? Operation.Read : Operation.ReadModifyWrite,
        _ => Operation.Read,
    };

    /// <summary>YCSB's requestdistribution: latest for D (reads chase the inserts), zipfian for the others.</summary>
    public static Keys.KeyDistribution DefaultDistribution(this Workload workload) =>
        workload == Workload.YcsbD ? Keys.KeyDistribution.Latest : Keys.KeyDistribution.Zipfian;

    /// <summary>C only reads, so it fits uri ammo too; the others mix methods, which only phantom holds.</summary>
    public static bool Allows(this Workload workload, AmmoFormat format) =>
        format == AmmoFormat.Phantom || (format == AmmoFormat.Uri && workload == Workload.YcsbC);
}
