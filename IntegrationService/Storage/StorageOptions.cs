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
}
