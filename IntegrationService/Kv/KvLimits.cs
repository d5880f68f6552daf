namespace IntegrationService.Kv;

/// <summary>The key-value API's limits, the same on every architecture.</summary>
public static class KvLimits
{
    /// <summary>The largest value (a PUT body) in bytes; a larger one is a 413.</summary>
    public const int MaxValueBytes = 1024 * 1024;

    /// <summary>The longest key (<c>?id=</c>) in UTF-8 bytes; a longer one is a 400.</summary>
    public const int MaxKeyBytes = 1024;
}
