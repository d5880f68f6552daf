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

    /// <summary>Counts <paramref name="call"/> in flight until it completes, and a timeout if it fails for one.</summary>
    public Task<T> Track<T>(Task<T> call)
    {
        if (!call.IsCompleted) return TrackAsync(call);
        if (call.IsFaulted) CountIfTimeout(call.Exception.InnerException);
        return call;
    }

    public void CountTimeout() => Interlocked.Increment(ref _timeouts);

    /// <summary>
    /// Whether a call failed for lack of an answer in time: our clients fail such a call with a
    /// <see cref="StorageUnavailableException"/> wrapping a <see cref="TimeoutException"/>.
    /// </summary>
    public static bool IsTimeout(Exception? e) => e is StorageUnavailableException { InnerException: TimeoutException };

    private async Task<T> TrackAsync<T>(Task<T> call)
    {
        Interlocked.Increment(ref _inFlight);
        try
        {
            return await call.ConfigureAwait(false);
        }
        catch (Exception e) when (CountIfTimeout(e))
        {
            throw; // never reached: the filter only counts
        }
        finally
        {
            Interlocked.Decrement(ref _inFlight);
        }
    }

    private bool CountIfTimeout(Exception? e)
    {
        if (IsTimeout(e)) CountTimeout();
        return false;
    }
}
