namespace IntegrationService.Kv;

/// <summary>
/// A key-value store for <c>/v0/entity</c>: values are opaque bytes kept exactly as given. Keys are
/// non-empty strings of at most <see cref="KvLimits.MaxKeyBytes"/> UTF-8 bytes (the endpoint checks).
/// </summary>
public interface IKvStore
{
    /// <summary>The value stored under <paramref name="key"/>, or null when there is none.</summary>
    Task<byte[]?> GetAsync(string key, CancellationToken cancellationToken);

    /// <summary>Stores <paramref name="value"/> under <paramref name="key"/>, replacing any earlier value; durable as the architecture states.</summary>
    Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken);

    /// <summary>Removes <paramref name="key"/>; removing an absent key is not an error.</summary>
    Task DeleteAsync(string key, CancellationToken cancellationToken);
}
