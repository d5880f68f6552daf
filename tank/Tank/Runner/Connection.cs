using System.Net;
using System.Net.Sockets;
using Tank.Ammo;

namespace Tank.Runner;

/// <summary>
/// One kept-alive TCP connection carrying one request at a time, as a phantom instance does.
/// The socket is non-blocking: the caller's thread (the scheduler) sends with one <c>send</c>; the
/// <see cref="Poller"/> thread reads the answer, finishes a connect, and writes whatever a send
/// could not (a full socket buffer), so the scheduler never blocks on a socket.
/// A request finishes when both the send and the response are done, or once on error/timeout.
/// </summary>
public sealed class Connection(ConnectionPool pool, Poller poller, EndPoint endPoint, Clock clock, ResultSink sink)
{
    private readonly ResponseParser _parser = new();
    private Socket? _socket;
    private long _id;           // the poller's cookie for this socket
    private bool _connecting;   // non-blocking connect in progress: the poller waits for writability
    private int _written;       // bytes of the request sent so far
    private volatile bool _wantsWrite;
    private AmmoRequest _request = null!;
    private string? _tagOverride;
    private long _start, _connected, _sent, _firstByte, _end, _lateness;
    private long _sizeIn;
    private int _steps;     // send + response; whoever finishes second completes the request
    private int _finished;  // 1 once the request is recorded, so errors and timeouts record it once
    private int _busy;

    private int _dead;

    public bool Dead => Volatile.Read(ref _dead) == 1;

    internal Socket? Socket => _socket;

    internal bool WantsWrite => _wantsWrite;

    /// <summary>Ticks at which the current request started, or 0 when idle (read by the timeout check).</summary>
    public long BusySince => Volatile.Read(ref _busy) == 1 ? _start : 0;

    public void Begin(AmmoRequest request, long scheduledTicks, string? tagOverride)
    {
        _request = request;
        _tagOverride = tagOverride;
        _start = Clock.Now;
        _lateness = scheduledTicks == 0 ? 0 : Math.Max(0, clock.ElapsedUs(_start) - clock.ElapsedUs(scheduledTicks));
        _connected = _sent = _firstByte = _end = 0;
        _sizeIn = 0;
        _written = 0;
        _parser.Reset();
        _steps = 2;
        _finished = 0;
        Volatile.Write(ref _busy, 1);
        pool.CountSend();
        if (_socket is null) Connect();
        else Write();
    }

    /// <summary>
    /// Opens the socket before the test's clock starts (a blocking connect: nothing is scheduled
    /// yet), so the first second's requests do not each pay for a connect. False when the target
    /// cannot be reached; the run then meets and records that error on its own.
    /// </summary>
    internal bool Preconnect()
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            socket.Connect(endPoint);
        }
        catch (SocketException)
        {
            socket.Dispose();
            return false;
        }
        socket.Blocking = false;
        _socket = socket;
        _id = poller.NewId();
        poller.Add(this, socket, _id, writable: false);
        return true;
    }

    // Non-blocking: a connect in progress is finished by the poller when the socket turns writable,
    // so a slow target never stalls the scheduler. (Handing the whole connect to the poller thread
    // was tried: at 30 000 rps the pool then grew to 1 000 connections with 140 ms connects.)
    private void Connect()
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, Blocking = false };
        _socket = socket;
        var connecting = false;
        try
        {
            socket.Connect(endPoint);
            _connected = Clock.Now;
        }
        catch (SocketException e) when (e.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress) { connecting = true; }
        catch (SocketException e) { Fail(NetCodes.From(e)); return; }
        _connecting = _wantsWrite = connecting;
        _id = poller.NewId(); // before Add: the poller thread uses it as soon as the socket is watched
        poller.Add(this, socket, _id, writable: connecting);
        // From here on the poller thread may already be finishing the connect: use the local.
        if (!connecting) Write();
    }

    /// <summary>Called on the poller thread when the socket is readable (or failed) or writable.</summary>
    internal void OnReady(bool readable, bool writable)
    {
        if (Dead) return;
        if (_connecting)
        {
            if (!writable) return;
            _connecting = false;
            SocketError error;
            try { error = (SocketError)(int)_socket!.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error)!; }
            catch (ObjectDisposedException) { return; }
            if (error != SocketError.Success) { Fail(NetCodes.From(new SocketException((int)error))); return; }
            _connected = Clock.Now;
            Write();
            return;
        }
        if (writable && _wantsWrite) Write();
        if (readable) Read();
    }

    private void Write()
    {
        var socket = _socket!;
        var bytes = _request.Bytes;
        int written;
        SocketError error;
        try
        {
            while (_written < bytes.Length)
            {
                written = socket.Send(bytes, _written, bytes.Length - _written, SocketFlags.None, out error);
                if (error == SocketError.WouldBlock)
                {
                    // The socket buffer is full: the poller finishes the send when it drains.
                    if (!_wantsWrite) { _wantsWrite = true; poller.WantWrite(socket, _id, true); }
                    return;
                }
                if (error != SocketError.Success) { Fail(NetCodes.From(new SocketException((int)error))); return; }
                _written += written;
            }
        }
        catch (ObjectDisposedException) { return; } // timed out meanwhile; already recorded
        if (_wantsWrite) { _wantsWrite = false; poller.WantWrite(socket, _id, false); }
        _sent = Math.Max(Clock.Now, _connected != 0 ? _connected : _start);
        if (Interlocked.Decrement(ref _steps) == 0) Complete();
    }

    // One recv per readiness event: level-triggered epoll reports again if more is waiting.
    private void Read()
    {
        var socket = _socket!;
        var buffer = poller.ReceiveBuffer;
        int read;
        SocketError error;
        try { read = socket.Receive(buffer, 0, buffer.Length, SocketFlags.None, out error); }
        catch (ObjectDisposedException) { Close(); return; }
        if (error == SocketError.WouldBlock) return;
        if (error != SocketError.Success) { if (Volatile.Read(ref _busy) == 1) Fail(NetCodes.From(new SocketException((int)error))); else Close(); return; }
        if (read == 0) { EndOfStream(); return; }
        if (Volatile.Read(ref _busy) == 0) { Close(); return; } // bytes nobody asked for: drop the connection
        if (_firstByte == 0) _firstByte = Clock.Now;
        _sizeIn += read;
        if (!_parser.Consume(buffer.AsSpan(0, read))) { Fail(NetCodes.ProtocolError); return; }
        if (!_parser.IsComplete) return;
        _end = Clock.Now;
        // The server will close: stop watching now, so its close is not read as a reset before
        // the send step (maybe still on the scheduler thread) completes the request.
        if (_parser.CloseAfter) poller.Remove(socket, _id);
        if (Interlocked.Decrement(ref _steps) == 0) Complete();
    }

    private void EndOfStream()
    {
        if (Volatile.Read(ref _busy) == 1 && _parser.ReadsUntilClose)
        {
            _parser.EndOfStream();
            _end = Clock.Now;
            poller.Remove(_socket!, _id); // EOF stays readable: don't read it again as a reset
            if (Interlocked.Decrement(ref _steps) == 0) Complete();
        }
        else if (Volatile.Read(ref _busy) == 1) Fail(NetCodes.ConnectionReset); // closed before answering
        else Close();
    }

    private void Complete()
    {
        if (Interlocked.Exchange(ref _finished, 1) == 1) return;
        var sent = Math.Max(_sent, _connected != 0 ? _connected : _start);
        var first = Math.Max(_firstByte, sent);
        Record(sent, first, Math.Max(_end, first), NetCodes.Ok, _parser.Status, intervalEventUs: -1);
        Volatile.Write(ref _busy, 0);
        if (_parser.CloseAfter) Close();
        else pool.Release(this);
    }

    private void Fail(int netCode)
    {
        if (Interlocked.Exchange(ref _finished, 1) == 1) return;
        var now = Clock.Now;
        var sent = _sent != 0 ? _sent : now;
        Record(sent, _firstByte != 0 ? _firstByte : now, now, netCode, 0, intervalEventUs: -1);
        Volatile.Write(ref _busy, 0);
        Close();
    }

    /// <summary>Called by the monitor when the request has waited longer than the timeout.</summary>
    public void TimeOut(long timeoutUs)
    {
        if (Interlocked.Exchange(ref _finished, 1) == 1) return;
        var now = Clock.Now;
        var sent = _sent != 0 ? _sent : now;
        Record(sent, _firstByte != 0 ? _firstByte : now, now, NetCodes.TimedOut, 0, timeoutUs);
        Volatile.Write(ref _busy, 0);
        Close();
    }

    // Each part is a difference of µs timestamps, so interval_real = the four parts exactly.
    private void Record(long sent, long firstByte, long end, int netCode, int status, long intervalEventUs)
    {
        var start = clock.UnixUs(_start);
        var connected = _connected != 0 ? clock.UnixUs(_connected) : start;
        var sentUs = Math.Max(clock.UnixUs(sent), connected);
        var firstUs = Math.Max(clock.UnixUs(firstByte), sentUs);
        var endUs = Math.Max(clock.UnixUs(end), firstUs);
        var record = new PhoutRecord
        {
            StartUnixUs = start,
            Tag = _tagOverride ?? _request.Tag,
            ConnectUs = connected - start,
            SendUs = sentUs - connected,
            LatencyUs = firstUs - sentUs,
            ReceiveUs = endUs - firstUs,
            SizeOut = _request.Bytes.Length,
            SizeIn = _sizeIn,
            NetCode = netCode,
            ProtoCode = status,
            LatenessUs = _lateness,
        };
        record.IntervalEventUs = intervalEventUs >= 0 ? intervalEventUs : record.IntervalRealUs;
        sink.Add(record);
        pool.CountFinish();
    }

    private void Close()
    {
        if (Interlocked.Exchange(ref _dead, 1) == 1) return;
        poller.Forget(_id);
        try { _socket?.Dispose(); } catch (ObjectDisposedException) { }
        pool.Discard(this);
    }

    /// <summary>Closes the socket at shutdown; an in-flight request is dropped, not recorded.</summary>
    public void Shutdown()
    {
        Interlocked.Exchange(ref _finished, 1);
        Volatile.Write(ref _busy, 0);
        Interlocked.Exchange(ref _dead, 1);
        poller.Forget(_id);
        try { _socket?.Dispose(); } catch (ObjectDisposedException) { }
    }
}
