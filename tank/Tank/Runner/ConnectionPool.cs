using System.Net;
using Tank.Ammo;

namespace Tank.Runner;

/// <summary>
/// At most <c>instances</c> connections. Open model: a due request takes an idle connection,
/// opens a new one, or waits (and leaves late) until one frees up. Closed model: each connection
/// sends its next request as soon as the last one is answered.
/// </summary>
public sealed class ConnectionPool(EndPoint endPoint, int instances, Clock clock, ResultSink sink, string? tagOverride, AmmoFeed? closedModelFeed)
{
    private readonly Lock _lock = new();
    private readonly Stack<Connection> _idle = new();
    private readonly Queue<(AmmoRequest Request, long Scheduled)> _waiting = new();
    private readonly List<Connection> _all = [];
    private readonly Poller _poller = new();
    private int _open;
    private bool _stopping;
    private long _sends;
    private int _inFlight;

    public long Sends => Interlocked.Read(ref _sends);
    public int InFlight => Volatile.Read(ref _inFlight);
    public int Open { get { lock (_lock) return _open; } }
    public int Waiting { get { lock (_lock) return _waiting.Count; } }

    /// <summary>Open model: send <paramref name="request"/> now, or as soon as an instance frees up.</summary>
    public void Dispatch(AmmoRequest request, long scheduledTicks)
    {
        Connection? connection = null;
        lock (_lock)
        {
            if (_stopping) return;
            while (_idle.Count > 0 && connection is null)
            {
                var candidate = _idle.Pop();
                if (!candidate.Dead) connection = candidate;
            }
            if (connection is null && _open < instances) connection = NewConnection();
            if (connection is null) { _waiting.Enqueue((request, scheduledTicks)); return; }
        }
        connection.Begin(request, scheduledTicks, tagOverride);
    }

    /// <summary>
    /// Opens up to <paramref name="count"/> kept-alive connections before the test starts (open
    /// model). Without them the first second opens hundreds of connections while requests are
    /// due, and those sends leave tens of milliseconds late.
    /// </summary>
    public int Preconnect(int count)
    {
        var opened = 0;
        for (; opened < count; opened++)
        {
            Connection connection;
            lock (_lock)
            {
                if (_open >= instances) break;
                connection = NewConnection();
            }
            if (!connection.Preconnect())
            {
                lock (_lock) { _all.Remove(connection); _open--; }
                break;
            }
            lock (_lock) _idle.Push(connection);
        }
        return opened;
    }

    /// <summary>Closed model: start one more instance that loops over the ammo.</summary>
    public void AddInstance()
    {
        var request = closedModelFeed!.Next();
        if (request is null) return;
        Connection connection;
        lock (_lock)
        {
            if (_stopping) return;
            connection = NewConnection();
        }
        connection.Begin(request, 0, tagOverride);
    }

    /// <summary>The connection answered and stays open: give it the next request or park it.</summary>
    public void Release(Connection connection)
    {
        if (closedModelFeed is not null)
        {
            var request = Volatile.Read(ref _stopping) ? null : closedModelFeed.Next();
            if (request is not null) { connection.Begin(request, 0, tagOverride); return; }
        }
        (AmmoRequest Request, long Scheduled) next;
        lock (_lock)
        {
            if (_stopping || !_waiting.TryDequeue(out next)) { _idle.Push(connection); return; }
        }
        connection.Begin(next.Request, next.Scheduled, tagOverride);
    }

    /// <summary>The connection closed: its instance slot goes to a waiting request or is freed.</summary>
    public void Discard(Connection connection)
    {
        Connection? replacement = null;
        AmmoRequest? request = null;
        long scheduled = 0;
        lock (_lock)
        {
            _all.Remove(connection);
            _open--;
            if (_stopping) return;
            if (closedModelFeed is not null) request = closedModelFeed.Next();
            else if (_waiting.TryDequeue(out var next)) (request, scheduled) = next;
            if (request is not null) replacement = NewConnection();
        }
        replacement?.Begin(request!, scheduled, tagOverride);
    }

    /// <summary>Connections busy longer than the timeout are failed with net code 110.</summary>
    public void ExpireTimeouts(long timeoutTicks)
    {
        Connection[] snapshot;
        lock (_lock) snapshot = [.. _all];
        var now = Clock.Now;
        foreach (var connection in snapshot)
        {
            var since = connection.BusySince;
            if (since != 0 && now - since > timeoutTicks) connection.TimeOut(clock.ElapsedUs(since + timeoutTicks) - clock.ElapsedUs(since));
        }
    }

    /// <summary>Stops handing out requests; waiting ones are dropped (never sent, so never recorded).</summary>
    public void Stop()
    {
        lock (_lock)
        {
            _stopping = true;
            _waiting.Clear();
        }
    }

    public void CloseAll()
    {
        Connection[] snapshot;
        lock (_lock) { _stopping = true; snapshot = [.. _all]; }
        foreach (var connection in snapshot) connection.Shutdown();
        _poller.Stop();
    }

    internal void CountSend()
    {
        Interlocked.Increment(ref _sends);
        Interlocked.Increment(ref _inFlight);
    }

    internal void CountFinish() => Interlocked.Decrement(ref _inFlight);

    private Connection NewConnection()
    {
        _open++;
        var connection = new Connection(this, _poller, endPoint, clock, sink);
        _all.Add(connection);
        return connection;
    }
}
