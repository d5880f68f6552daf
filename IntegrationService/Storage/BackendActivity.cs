namespace IntegrationService.Storage;

/// <summary>
/// One backend client's calls in flight and calls that got no answer in time, for <c>/metrics</c>.
/// Counting costs an interlocked increment and decrement per call; the values are read at scrape time.
/// </summary>
public sealed class BackendActivity(string backend)
{
    private long _inFlight;
    private long _timeouts;

    /// <summary>The backend's name, e.g. "tarantool", "redis-cache".</summary>
    public string Backend { get; } = backend;

    public long InFlight => Volatile.Read(ref _inFlight);

    public long Timeouts => Volatile.Read(ref _timeouts);

    /// <summary>A call was sent; pair with <see cref="End"/> in a finally.</summary>
    public void Begin() => Interlocked.Increment(ref _inFlight);

    public void End() => Interlocked.Decrement(ref _inFlight);

    public void CountTimeout() => Interlocked.Increment(ref _timeouts);
}
