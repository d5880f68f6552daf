using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace Tank.Runner;

/// <summary>
/// One receive thread for all connections. On Linux it waits on an epoll set (level-triggered),
/// so a response costs one <c>epoll_wait</c> (shared by every socket that became ready at once) and
/// one <c>recv</c>. .NET's async sockets also cost a failed <c>recv</c> for every ReceiveAsync
/// issued before the answer is there (nearly always, for a load generator) plus their own
/// bookkeeping; on this VM, where syscalls are expensive, that was ~10 % of the runner's CPU.
/// Sockets are registered once per connection; idle kept-alive ones raise no events.
/// Elsewhere it falls back to <see cref="Socket.Select"/> with a 1 ms timeout (correct, not fast).
/// </summary>
public sealed class Poller
{
    private const uint EpollIn = 0x1, EpollOut = 0x4, EpollErr = 0x8, EpollHup = 0x10;
    private const int CtlAdd = 1, CtlDel = 2, CtlMod = 3;
    private const int MaxEvents = 256;
    private const int WaitTimeoutMs = 50; // only so the thread notices Stop

    // struct epoll_event is packed (12 bytes) on x86-64 and naturally aligned (16) elsewhere.
    private static readonly bool Packed = RuntimeInformation.ProcessArchitecture == Architecture.X64;
    private static readonly int Stride = Packed ? 12 : 16;
    private static readonly int DataOffset = Packed ? 4 : 8;

    [DllImport("libc", SetLastError = true)] private static extern int epoll_create1(int flags);
    [DllImport("libc", SetLastError = true)] private static extern int epoll_ctl(int epfd, int op, int fd, ref byte ev);
    [DllImport("libc", SetLastError = true)] private static extern int epoll_wait(int epfd, byte[] events, int maxEvents, int timeoutMs);
    [DllImport("libc")] private static extern int close(int fd);

    private readonly ConcurrentDictionary<long, Connection> _connections = new();
    private readonly int _epoll = -1;
    private long _nextId;
    private volatile bool _stopping;

    /// <summary>Every recv happens on the poller thread, so all connections share one buffer.</summary>
    internal byte[] ReceiveBuffer { get; } = new byte[64 * 1024];

    public Poller()
    {
        if (OperatingSystem.IsLinux()) _epoll = epoll_create1(0x80000 /* EPOLL_CLOEXEC */);
        var thread = new Thread(_epoll >= 0 ? RunEpoll : RunSelect) { IsBackground = true, Name = "tank-receiver" };
        thread.Start();
    }

    /// <summary>A fresh id (the epoll cookie); ids are never reused, so a stale event cannot hit a new socket.</summary>
    public long NewId() => Interlocked.Increment(ref _nextId);

    /// <summary>Watches <paramref name="connection"/>'s socket. Its events may arrive before this returns.</summary>
    public void Add(Connection connection, Socket socket, long id, bool writable)
    {
        _connections[id] = connection;
        Control(CtlAdd, socket, id, writable);
    }

    /// <summary>Also wake for writability (a pending connect or a send that would block), or stop doing so.</summary>
    public void WantWrite(Socket socket, long id, bool writable) => Control(CtlMod, socket, id, writable);

    /// <summary>Stops watching; closing the socket would do too, this is for sockets that stay open a moment.</summary>
    public void Remove(Socket socket, long id)
    {
        Control(CtlDel, socket, id, false);
        Forget(id);
    }

    public void Forget(long id) => _connections.TryRemove(id, out _);

    /// <summary>The thread ends within <see cref="WaitTimeoutMs"/> and closes the epoll set itself.</summary>
    public void Stop() => _stopping = true;

    private void Control(int op, Socket socket, long id, bool writable)
    {
        if (_epoll < 0) return; // Select mode reads the interest from the connections
        Span<byte> ev = stackalloc byte[16];
        BitConverter.TryWriteBytes(ev, EpollIn | (writable ? EpollOut : 0));
        BitConverter.TryWriteBytes(ev[DataOffset..], id);
        // Holding a reference keeps the fd from being closed (and its number reused) mid-call.
        var handle = socket.SafeHandle;
        var added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            epoll_ctl(_epoll, op, (int)handle.DangerousGetHandle(), ref ev[0]);
        }
        catch (ObjectDisposedException) { } // closed meanwhile: the kernel dropped it from the set
        finally { if (added) handle.DangerousRelease(); }
    }

    private void RunEpoll()
    {
        var events = new byte[MaxEvents * Stride];
        while (!_stopping)
        {
            var count = epoll_wait(_epoll, events, MaxEvents, WaitTimeoutMs);
            for (var i = 0; i < count; i++)
            {
                var flags = BitConverter.ToUInt32(events, i * Stride);
                var id = BitConverter.ToInt64(events, i * Stride + DataOffset);
                // A closed connection's id is gone: its event was already queued, ignore it.
                if (_connections.TryGetValue(id, out var connection))
                    connection.OnReady((flags & (EpollIn | EpollErr | EpollHup)) != 0, (flags & (EpollOut | EpollErr | EpollHup)) != 0);
            }
        }
        close(_epoll);
    }

    private void RunSelect()
    {
        var read = new List<Socket>();
        var write = new List<Socket>();
        var error = new List<Socket>();
        var bySocket = new Dictionary<Socket, Connection>();
        while (!_stopping)
        {
            read.Clear(); write.Clear(); error.Clear(); bySocket.Clear();
            foreach (var connection in _connections.Values)
            {
                if (connection.Socket is not { } socket || connection.Dead) continue;
                bySocket[socket] = connection;
                read.Add(socket);
                error.Add(socket);
                if (connection.WantsWrite) write.Add(socket);
            }
            if (read.Count == 0) { Thread.Sleep(1); continue; }
            try { Socket.Select(read, write, error, 1000); }
            catch (ObjectDisposedException) { continue; }
            catch (SocketException) { continue; }
            foreach (var socket in bySocket.Keys)
            {
                bool readable = read.Contains(socket) || error.Contains(socket), writable = write.Contains(socket);
                if (readable || writable) bySocket[socket].OnReady(readable, writable || error.Contains(socket));
            }
        }
    }
}
