namespace Wire.Connections.Tests;

/// <summary>
/// A write-only stream that keeps every write it receives as one chunk; <see cref="HoldWrites"/> makes
/// the next write wait until <see cref="Release"/>, and <see cref="Fail"/> makes writes throw.
/// </summary>
internal sealed class RecordingStream : Stream
{
    private readonly Lock _lock = new();
    private readonly List<byte[]> _writes = [];
    private TaskCompletionSource? _gate;
    private Exception? _failure;

    public TaskCompletionSource WriteStarted { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public IReadOnlyList<byte[]> Writes
    {
        get
        {
            lock (_lock) return [.. _writes];
        }
    }

    public override long Length
    {
        get
        {
            lock (_lock) return _writes.Sum(w => w.Length);
        }
    }

    public override bool CanRead => false;
    public override bool CanSeek => false;
    public override bool CanWrite => true;

    public void HoldWrites() => _gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

    public void Release() => _gate?.TrySetResult();

    public void Fail(Exception failure) => _failure = failure;

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (_failure is { } failure) throw failure;
        var copy = buffer.ToArray();
        WriteStarted.TrySetResult();
        if (_gate is { } gate) await gate.Task;
        lock (_lock) _writes.Add(copy);
    }

    public override void Flush()
    {
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    public override long Position { get => 0; set => throw new NotSupportedException(); }
}
