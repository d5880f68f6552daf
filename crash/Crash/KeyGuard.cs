namespace Crash;

/// <summary>
/// Keeps writes to one key from overlapping, so the order they were sent in is the order they
/// could apply in: a key is busy while a write to it is in flight, and retired for the rest of the
/// run once a write to it ended in doubt (that write may still sit inside the server and land
/// after a later one). Thread-safe.
/// </summary>
internal sealed class KeyGuard
{
    private readonly Lock _lock = new();
    private readonly HashSet<string> _busy = new(StringComparer.Ordinal);
    private readonly HashSet<string> _retired = new(StringComparer.Ordinal);

    public int Retired
    {
        get { lock (_lock) return _retired.Count; }
    }

    /// <summary>Marks the key busy, or returns false if it is busy or retired.</summary>
    public bool TryTake(string key)
    {
        lock (_lock)
        {
            return !_retired.Contains(key) && _busy.Add(key);
        }
    }

    public void Release(string key, bool retire)
    {
        lock (_lock)
        {
            _busy.Remove(key);
            if (retire) _retired.Add(key);
        }
    }
}
