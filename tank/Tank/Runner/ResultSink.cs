namespace Tank.Runner;

/// <summary>
/// Where connections drop finished requests; the monitor swaps the buffer out in one go.
/// A lock over a list is cheaper here than a concurrent queue: tens of thousands of adds a
/// second against one swap every few ms.
/// </summary>
public sealed class ResultSink
{
    private readonly Lock _lock = new();
    private List<PhoutRecord> _filling = new(4096);
    private List<PhoutRecord> _spare = new(4096);

    public void Add(in PhoutRecord record)
    {
        lock (_lock) _filling.Add(record);
    }

    /// <summary>Returns everything added since the last call; valid until the next call.</summary>
    public List<PhoutRecord> Drain()
    {
        _spare.Clear();
        lock (_lock) (_filling, _spare) = (_spare, _filling);
        return _spare;
    }
}
