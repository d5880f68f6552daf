namespace Wire.Connections.Tests;

/// <summary>A connection with nothing behind it: open until <see cref="Break"/> or disposal.</summary>
internal sealed class FakeConnection(int number) : IKeptConnection
{
    private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public int Number { get; } = number;

    public bool IsOpen => !_closed.Task.IsCompleted;

    public Task Closed => _closed.Task;

    public bool Disposed { get; private set; }

    public void Break() => _closed.TrySetResult();

    public void Dispose()
    {
        Disposed = true;
        Break();
    }

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }
}
