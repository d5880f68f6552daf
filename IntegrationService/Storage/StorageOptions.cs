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
}
