namespace Wire.Connections.Tests;

/// <summary>
/// The open function a keeper is given: counts attempts, fails the first <see cref="RefuseNext"/> of them,
/// and holds each attempt until <see cref="Gate"/> completes when one is set.
/// </summary>
internal sealed class FakeServer
{
    private int _attempts;

    public int Attempts => Volatile.Read(ref _attempts);

    public int RefuseNext { get; set; }

    public TaskCompletionSource? Gate { get; set; }

    public async Task<FakeConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var number = Interlocked.Increment(ref _attempts);
        if (Gate is { } gate) await gate.Task.WaitAsync(cancellationToken);
        if (RefuseNext > 0)
        {
            RefuseNext--;
            throw new IOException($"refused ({number})");
        }
        return new FakeConnection(number);
    }
}
