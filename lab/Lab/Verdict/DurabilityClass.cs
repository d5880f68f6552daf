namespace Lab.Verdicts;

/// <summary>The fault an architecture must survive without losing an acknowledged write.</summary>
public enum DurabilityClass { None, Crash, PowerLoss }

public static class DurabilityClasses
{
    public static readonly string[] Names = ["none", "crash", "power-loss"];

    public static DurabilityClass Parse(string text) => (DurabilityClass)Array.IndexOf(Names, text);

    public static string Name(this DurabilityClass durability) => Names[(int)durability];

    /// <summary>
    /// The crash test's faults of a class: crash = a kill -9 (script/crashtest's db-kill of the
    /// server, service-kill of the service); power-loss = rows whose fault is "power-loss". A
    /// SIGSTOP (db-stop) loses no memory and proves neither.
    /// </summary>
    public static bool Covers(this DurabilityClass durability, string fault) => durability switch
    {
        DurabilityClass.Crash => fault is "db-kill" or "service-kill",
        DurabilityClass.PowerLoss => fault == "power-loss",
        _ => false,
    };
}
