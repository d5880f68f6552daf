namespace IntegrationService.Storage.Limits;

/// <summary>
/// A backend server already has as many calls in flight as <see cref="StorageOptions.MaxConcurrentRequestsPerBackend"/>
/// allows. Mapped to 503 with Retry-After and the title "Backend overloaded"; not logged one by one
/// (under overload there are thousands a second).
/// </summary>
public sealed class BackendOverloadedException(string backend, int limit)
    : Exception($"{backend}: {limit} requests are already in flight, the most allowed per backend (Storage:MaxConcurrentRequestsPerBackend); retry later.")
{
    public string Backend { get; } = backend;
}
