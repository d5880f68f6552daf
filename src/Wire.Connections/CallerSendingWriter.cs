namespace Wire.Connections;

/// <summary>
/// The sending half of a pipelined connection, like <see cref="PipelinedWriter"/> but sending on the
/// caller's thread: callers append whole frames to a shared queue buffer (<see cref="TryEnqueue{TFrame}"/>, one short lock) and whoever finds no send in
/// progress sends what is queued, on its own thread, until the queue is empty or a write has to wait (the
/// socket's buffer is full); then a pool thread goes on. Frames that arrive while a write is in flight go
/// out together in the next one. Once <see cref="TryClose"/> has run, nothing more is queued or sent; a
/// failed write reports its exception to the owner (which then closes the connection).
/// <para>
/// Which one a client takes is a measured choice. This one spares a thread hop per send, which is most
/// of the sending cost when each command waits for its reply before the next one can follow, as
/// beanstalkd's few, small commands do (issue 24: the beanstalkd client cost the service 2.8 × Redis's CPU
/// per message with <see cref="PipelinedWriter"/>). It costs the Tarantool client a fifth of its rate on
/// memtx gets, where the loop coalesces more frames per write (2026-11-25 journal): Tarantool keeps
/// <see cref="PipelinedWriter"/>.
/// </para>
/// </summary>
public sealed class CallerSendingWriter
{
    private readonly Stream _stream;
    private readonly Action<Exception> _onWriteFailed;
    private readonly Lock _queueLock = new();
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private PooledBufferWriter _queued;
    private PooledBufferWriter _writing;
    private Exception? _closedBecause;

    // Under _queueLock: whether sending may begin, whether a sender owns _writing, whether a write failed.
    private bool _started;
    private bool _sending;
    private bool _failed;

    /// <param name="stream">The connection's stream; the writer only writes to it.</param>
    /// <param name="onWriteFailed">Called once, on the sending thread, when a write throws.</param>
    /// <param name="initialCapacity">The starting size of each of the two send buffers, in bytes.</param>
    public CallerSendingWriter(Stream stream, Action<Exception> onWriteFailed, int initialCapacity = 64 * 1024)
    {
        _stream = stream;
        _onWriteFailed = onWriteFailed;
        _queued = new PooledBufferWriter(initialCapacity);
        _writing = new PooledBufferWriter(initialCapacity);
    }

    /// <summary>Why the writer was closed (the exception given to <see cref="TryClose"/>); null while open.</summary>
    public Exception? ClosedBecause => Volatile.Read(ref _closedBecause);

    /// <summary>Completes once no write is in progress and none will start: after <see cref="TryClose"/> or a failed write.</summary>
    public Task Completion => _done.Task;

    /// <summary>Lets sending begin (frames queued before wait for it).</summary>
    public void Start()
    {
        bool send;
        lock (_queueLock)
        {
            _started = true;
            send = TryBeginSend();
        }
        if (send) _ = SendAsync();
    }

    /// <summary>
    /// Queues <paramref name="frame"/> (see <see cref="IOutgoingFrame.WriteTo"/>) and, if no send is in
    /// progress, sends it before returning unless the write has to wait; false, with nothing written or
    /// registered, once the writer is closed.
    /// </summary>
    public bool TryEnqueue<TFrame>(ref TFrame frame) where TFrame : IOutgoingFrame, allows ref struct
    {
        bool send;
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
            send = TryBeginSend();
        }
        if (send) _ = SendAsync(); // never faults: SendAsync reports its failure to the owner
        return true;
    }

    /// <summary>
    /// Closes the writer for good: true for the first caller, who then owns the drain of whatever waits for
    /// answers (no frame is queued after this returns); false if it was closed already.
    /// </summary>
    public bool TryClose(Exception reason)
    {
        bool idle;
        lock (_queueLock)
        {
            if (_closedBecause is not null) return false;
            Volatile.Write(ref _closedBecause, reason);
            idle = !_sending;
        }
        if (idle) _done.TrySetResult();
        return true;
    }

    /// <summary>Under the lock: claims the sending role when there is something to send and nobody sends it.</summary>
    private bool TryBeginSend()
    {
        if (_sending || !_started || _failed || _queued.WrittenCount == 0) return false;
        _sending = true;
        return true;
    }

    private async Task SendAsync()
    {
        try
        {
            while (true)
            {
                lock (_queueLock)
                {
                    if (_queued.WrittenCount == 0 || _closedBecause is not null)
                    {
                        _sending = false;
                        if (_closedBecause is not null) _done.TrySetResult();
                        return;
                    }
                    (_queued, _writing) = (_writing, _queued);
                }
                await _stream.WriteAsync(_writing.WrittenMemory).ConfigureAwait(false);
                _writing.Clear();
            }
        }
        catch (Exception ex)
        {
            lock (_queueLock)
            {
                _sending = false;
                _failed = true;
            }
            _done.TrySetResult();
            _onWriteFailed(ex);
        }
    }
}
