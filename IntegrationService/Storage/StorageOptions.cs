using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Storage;

/// <summary>Configuration section "Storage".</summary>
public sealed class StorageOptions
{
    /// <summary>The architecture used when a request has no <c>storage</c> query parameter.</summary>
    [Required]
    public string Default { get; set; } = "postgres";

    /// <summary>Seconds announced in <c>Retry-After</c> when a backend is unavailable.</summary>
    [Range(1, 3600)]
    public int RetryAfterSeconds { get; set; } = 2;

    /// <summary>
    /// Requests allowed in flight per backend server; more are shed at once with 503 and Retry-After
    /// (overload shedding, see Storage/Limits/BackendLimiter.cs). Above the benchmarks' 64 connections.
    /// </summary>
    [Range(1, 100_000)]
    public int MaxConcurrentRequestsPerBackend { get; set; } = 128;

    /// <summary>
    /// Requests that may wait, oldest first, for a permit of a backend whose permits are all taken;
    /// beyond them the next is shed at once. A closed-model client with more connections than the
    /// limit (the original queue study's <c>siege -c1000</c>) then waits its turn instead of failing.
    /// </summary>
    [Range(0, 100_000)]
    public int MaxQueuedRequestsPerBackend { get; set; } = 1024;

    /// <summary>Milliseconds a queued request waits for a permit before it is shed (503 with Retry-After).</summary>
    [Range(1, 60_000)]
    public int MaxQueueWaitMs { get; set; } = 1000;

    /// <summary>
    /// The architectures this node is configured to serve, comma-separated: <c>/health/ready</c> requires
    /// only the backend servers they use (Http/ReadinessScope.cs). Empty: every architecture, or on a
    /// key-value cluster node (<c>Cluster:Nodes</c> set) only <c>Kv:Default</c>'s. Requests may still name any.
    /// </summary>
    public string? ReadyArchitectures { get; set; }
}
