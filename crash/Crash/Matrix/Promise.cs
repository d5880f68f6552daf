namespace Crash.Matrix;

/// <summary>Which of the catalogue's durability promises a fault tests.</summary>
public enum Promise
{
    /// <summary><c>durability.processCrash</c>: the server or the service dies or hangs, the machine and its page cache survive.</summary>
    ProcessCrash,
    /// <summary><c>durability.powerLoss</c>: what was not on the disk is gone.</summary>
    PowerLoss,
    /// <summary><c>replication.failoverLoss</c>: the primary fails and a replica takes its place (replicated architectures only).</summary>
    Failover,
}
