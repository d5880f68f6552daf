namespace Crash;

/// <summary>
/// The keys a workload's writes were acknowledged for, and a pick at random among those free to write
/// (<see cref="KeyGuard"/>): how the author and key-value workloads choose what a later write overwrites.
/// Thread-safe.
/// </summary>
internal sealed class AckedKeys(int seed)
{
    private const int PickAttempts = 8;
    private readonly Lock _lock = new();
    private readonly List<string> _acked = [];
    private readonly HashSet<string> _known = new(StringComparer.Ordinal);
    private readonly Random _random = new(seed);

    /// <summary>Who may write a key now; a write takes its key and releases it when it ends.</summary>
    public KeyGuard Guard { get; } = new();

    public void Add(string key)
    {
        lock (_lock)
        {
            if (_known.Add(key)) _acked.Add(key);
        }
    }

    /// <summary>An acknowledged key no write holds, taken for the caller's write; null when none was found in a few tries.</summary>
    public string? TryPick()
    {
        for (var attempt = 0; attempt < PickAttempts; attempt++)
        {
            string key;
            lock (_lock)
            {
                if (_acked.Count == 0) return null;
                key = _acked[_random.Next(_acked.Count)];
            }
            if (Guard.TryTake(key)) return key;
        }
        return null;
    }
}
