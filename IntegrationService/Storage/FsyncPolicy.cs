namespace IntegrationService.Storage;

/// <summary>When an architecture forces an acknowledged write to disk (<see cref="DurabilityFacts.Fsync"/>).</summary>
public static class FsyncPolicy
{
    /// <summary>Before the answer (PostgreSQL's synchronous commit, appendfsync always, wal_mode=fsync, beanstalkd -f 0).</summary>
    public const string PerCommit = "per-commit";

    /// <summary>At most every <see cref="DurabilityFacts.FsyncIntervalMs"/> (appendfsync everysec, beanstalkd -f N, synchronous_commit=off).</summary>
    public const string Periodic = "periodic";

    /// <summary>Written before the answer but left to the kernel's writeback (wal_mode=write, appendfsync no).</summary>
    public const string Kernel = "kernel";

    /// <summary>Only whole snapshots, every <see cref="DurabilityFacts.FsyncIntervalMs"/> at best (Redis RDB, wal_mode=none).</summary>
    public const string Snapshot = "snapshot";

    /// <summary>Nothing is forced to disk (PostgreSQL fsync=off).</summary>
    public const string Never = "never";
}
