namespace Lab.Verdicts;

/// <summary>The fault an architecture must survive without losing an acknowledged write.</summary>
public enum DurabilityClass { None, Crash, PowerLoss, Failover }

public static class DurabilityClasses
{
    public static readonly string[] Names = ["none", "crash", "power-loss", "failover"];

    public static DurabilityClass Parse(string text) => (DurabilityClass)Array.IndexOf(Names, text);

    public static string Name(this DurabilityClass durability) => Names[(int)durability];

    /// <summary>
    /// The crash test's faults of a class: crash = a kill -9 (script/crashtest's db-kill of the
    /// server, service-kill of the service); power-loss = rows whose fault is "power-loss"; failover =
    /// a replicated architecture's primary killed (primary-kill), frozen past the failover
    /// (primary-stop) or cut off from the other nodes (primary-partition, primary-partition-oneway). A SIGSTOP of a lone server (db-stop) loses no memory and proves none of them;
    /// a failover proves nothing about the crash of a lone server, so crash does not cover it.
    /// </summary>
    public static bool Covers(this DurabilityClass durability, string fault) => durability switch
    {
        DurabilityClass.Crash => fault is "db-kill" or "service-kill",
        DurabilityClass.PowerLoss => fault == "power-loss",
        DurabilityClass.Failover => fault is "primary-kill" or "primary-stop" or "primary-partition" or "primary-partition-oneway",
        _ => false,
    };
}
