using System.Net;
using System.Net.Sockets;
using Tank.Ammo;

namespace Tank.Runner;

/// <summary>
/// One kept-alive TCP connection carrying one request at a time, as a phantom instance does.
/// The caller's thread sends (synchronously, bytes verbatim); a receive loop parses the answer.
/// A request finishes when both the send and the response are done, or once on error/timeout.
/// </summary>
public sealed class Connection(ConnectionPool pool, EndPoint endPoint, Clock clock, ResultSink sink)
{
    private readonly byte[] _buffer = new byte[64 * 1024];
    private readonly ResponseParser _parser = new();
    private Socket? _socket;
    private bool _receiving;
    private AmmoRequest _request = null!;
    private string? _tagOverride;
    private long _start, _connected, _sent, _firstByte, _end, _lateness;
    private long _sizeIn;
    private int _steps;     // send + response; whoever finishes second completes the request
    private int _finished;  // 1 once the request is recorded, so errors and timeouts record it once
    private int _busy;

    private int _dead;

    public bool Dead => Volatile.Read(ref _dead) == 1;

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
        _parser.Reset();
        _steps = 2;
        _finished = 0;
        Volatile.Write(ref _busy, 1);
        pool.CountSend();
        if (_socket is null) _ = ConnectThenSendAsync();
        else Send();
    }

    private async Task ConnectThenSendAsync()
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        _socket = socket;
        try
        {
            await socket.ConnectAsync(endPoint).ConfigureAwait(false);
        }
        catch (SocketException e) { Fail(NetCodes.From(e)); return; }
        catch (ObjectDisposedException) { Fail(NetCodes.TimedOut); return; }
        _connected = Clock.Now;
        Send();
    }

    private void Send()
    {
        var socket = _socket!;
        var sendStart = _connected != 0 ? _connected : _start;
        try
        {
            var bytes = _request.Bytes;
            for (var offset = 0; offset < bytes.Length;)
                offset += socket.Send(bytes, offset, bytes.Length - offset, SocketFlags.None);
        }
        catch (SocketException e) { Fail(NetCodes.From(e)); return; }
        catch (ObjectDisposedException) { return; } // timed out meanwhile; already recorded
        _sent = Math.Max(Clock.Now, sendStart);
        if (!_receiving) { _receiving = true; _ = ReceiveLoopAsync(socket); }
        if (Interlocked.Decrement(ref _steps) == 0) Complete();
    }

    private async Task ReceiveLoopAsync(Socket socket)
    {
        try
        {
            while (true)
            {
                var read = await socket.ReceiveAsync(_buffer, SocketFlags.None).ConfigureAwait(false);
                if (read == 0) { EndOfStream(); return; }
                if (Volatile.Read(ref _busy) == 0) { Close(); return; } // bytes nobody asked for: drop the connection
                if (_firstByte == 0) _firstByte = Clock.Now;
                _sizeIn += read;
                if (!_parser.Consume(_buffer.AsSpan(0, read))) { Fail(NetCodes.ProtocolError); return; }
                if (!_parser.IsComplete) continue;
                _end = Clock.Now;
                if (Interlocked.Decrement(ref _steps) == 0) Complete();
                if (_parser.CloseAfter) return;
            }
        }
        catch (SocketException e) { if (Volatile.Read(ref _busy) == 1) Fail(NetCodes.From(e)); else Close(); }
        catch (ObjectDisposedException) { Close(); }
    }

    private void EndOfStream()
    {
        if (Volatile.Read(ref _busy) == 1 && _parser.ReadsUntilClose)
        {
            _parser.EndOfStream();
            _end = Clock.Now;
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
        try { _socket?.Dispose(); } catch (ObjectDisposedException) { }
        pool.Discard(this);
    }

    /// <summary>Closes the socket at shutdown; an in-flight request is dropped, not recorded.</summary>
    public void Shutdown()
    {
        Interlocked.Exchange(ref _finished, 1);
        Volatile.Write(ref _busy, 0);
        Interlocked.Exchange(ref _dead, 1);
        try { _socket?.Dispose(); } catch (ObjectDisposedException) { }
    }
}
