using System.Threading.Channels;

namespace Wire.Connections;

/// <summary>
/// The sending half of a pipelined connection: callers append whole frames to a shared queue buffer
/// (<see cref="TryEnqueue{TFrame}"/>, one short lock) and one write loop sends whatever is queued. The loop
/// never waits for company — a lone frame is written at once, and frames that arrive while a write is in
/// flight go out together in the next one — so many concurrent callers cost few system calls. Once
/// <see cref="TryClose"/> has run, nothing more is queued; a failed write reports its exception to the
/// owner (which then closes the connection).
/// </summary>
public sealed class PipelinedWriter
{
    private readonly Stream _stream;
    private readonly Action<Exception> _onWriteFailed;
    private readonly Lock _queueLock = new();
    private readonly Channel<bool> _wake = Channel.CreateBounded<bool>(
        new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite, SingleReader = true });
    private PooledBufferWriter _queued;
    private PooledBufferWriter _writing;
    private Exception? _closedBecause;

    /// <param name="stream">The connection's stream; the writer only writes to it.</param>
    /// <param name="onWriteFailed">Called once, from the write loop, when a write throws.</param>
    /// <param name="initialCapacity">The starting size of each of the two send buffers, in bytes.</param>
    public PipelinedWriter(Stream stream, Action<Exception> onWriteFailed, int initialCapacity = 64 * 1024)
    {
        _stream = stream;
        _onWriteFailed = onWriteFailed;
        _queued = new PooledBufferWriter(initialCapacity);
        _writing = new PooledBufferWriter(initialCapacity);
    }

    /// <summary>Why the writer was closed (the exception given to <see cref="TryClose"/>); null while open.</summary>
    public Exception? ClosedBecause => Volatile.Read(ref _closedBecause);

    /// <summary>The write loop; completes after <see cref="TryClose"/> or a failed write.</summary>
    public Task Completion { get; private set; } = Task.CompletedTask;

    /// <summary>Starts the write loop.</summary>
    public void Start() => Completion = Task.Run(WriteLoopAsync);

    /// <summary>
    /// Queues <paramref name="frame"/> (see <see cref="IOutgoingFrame.WriteTo"/>); false, with nothing written
    /// or registered, once the writer is closed.
    /// </summary>
    public bool TryEnqueue<TFrame>(ref TFrame frame) where TFrame : IOutgoingFrame, allows ref struct
    {
        bool wasEmpty;
        lock (_queueLock)
        {
            // Checked under the lock TryClose takes, so nothing is registered after the owner's drain.
            if (_closedBecause is not null) return false;
            var start = _queued.WrittenCount;
            try
            {
                frame.WriteTo(_queued);
            }
            catch
            {
                _queued.Truncate(start);
                throw;
            }
            wasEmpty = start == 0;
        }
        // Only the empty → non-empty transition needs to wake the loop: it drains until empty.
        if (wasEmpty) _wake.Writer.TryWrite(true);
        return true;
    }

    /// <summary>
    /// Closes the writer for good: true for the first caller, who then owns the drain of whatever waits for
    /// answers (no frame is queued after this returns); false if it was closed already.
    /// </summary>
    public bool TryClose(Exception reason)
    {
        lock (_queueLock)
        {
            if (_closedBecause is not null) return false;
            Volatile.Write(ref _closedBecause, reason);
        }
        _wake.Writer.TryComplete();
        return true;
    }

    private async Task WriteLoopAsync()
    {
        try
        {
            while (await _wake.Reader.WaitToReadAsync().ConfigureAwait(false))
            {
                _wake.Reader.TryRead(out _);
                while (true)
                {
                    lock (_queueLock)
                    {
                        if (_queued.WrittenCount == 0) break;
                        (_queued, _writing) = (_writing, _queued);
                    }
                    await _stream.WriteAsync(_writing.WrittenMemory).ConfigureAwait(false);
                    _writing.Clear();
                }
            }
        }
        catch (Exception ex)
        {
            _onWriteFailed(ex);
        }
    }
}
