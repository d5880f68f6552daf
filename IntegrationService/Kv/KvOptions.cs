using System.ComponentModel.DataAnnotations;

namespace IntegrationService.Kv;

/// <summary>Configuration section "Kv".</summary>
public sealed class KvOptions
{
    /// <summary>
    /// The architecture <c>/v0/entity</c> uses when the request has no <c>storage</c> parameter, so
    /// that the key-value study's URLs work unchanged.
    /// </summary>
    [Required]
    public string Default { get; set; } = "postgres";
}
