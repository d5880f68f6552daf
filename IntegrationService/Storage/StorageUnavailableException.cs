namespace IntegrationService.Storage;

/// <summary>
/// A backend could not be reached or did not answer in time. Mapped to 503 with Retry-After;
/// the wrapped exception keeps the driver's detail for the log.
/// </summary>
public sealed class StorageUnavailableException(string backend, string message, Exception? inner = null)
    : Exception($"{backend}: {message}", inner)
{
    /// <summary>The backend kind that failed, e.g. "postgres", "tarantool", "redis-cache".</summary>
    public string Backend { get; } = backend;

    /// <summary>What happened, without the backend's name (the message is "backend: reason").</summary>
    public string Reason { get; } = message;
}
