namespace IntegrationService.Storage.Limits;

/// <summary>
/// A backend server already has as many calls in flight as <see cref="StorageOptions.MaxConcurrentRequestsPerBackend"/>
/// allows, and its queue was full or the call's wait for a permit ran out (or another bound of the same
/// kind was reached: the cluster's connections to a node). Mapped to 503 with Retry-After and the title
/// "Backend overloaded"; not logged one by one (under overload there are thousands a second).
/// </summary>
public sealed class BackendOverloadedException : Exception
{
    public BackendOverloadedException(string backend, int limit, int queueLimit, TimeSpan queueWait)
        : this(backend, $"{backend}: {limit} requests are in flight, the most allowed per backend (Storage:MaxConcurrentRequestsPerBackend), " +
            (queueLimit == 0
                ? "and none may wait (Storage:MaxQueuedRequestsPerBackend=0); retry later."
                : $"and {queueLimit} may wait at most {queueWait.TotalMilliseconds:0} ms for one (Storage:MaxQueuedRequestsPerBackend, Storage:MaxQueueWaitMs): the queue was full or the wait ran out; retry later."))
    {
    }

    /// <summary>Another bound than a backend's permits, explained by <paramref name="message"/> (which names its settings).</summary>
    public BackendOverloadedException(string backend, string message) : base(message)
    {
        Backend = backend;
    }

    public string Backend { get; }
}
