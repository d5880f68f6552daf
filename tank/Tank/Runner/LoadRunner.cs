using System.Net;
using System.Net.Sockets;
using Tank.Cpu;
using Tank.Stats;
using Harness.CommandLine;
using Harness.Timing;

namespace Tank.Runner;

/// <summary>
/// Executes a schedule: a dedicated scheduler thread releases each request at its planned
/// millisecond (open model) or starts instances (closed model), while the calling thread runs the
/// monitor. Returns Tank's exit code: 0, or the autostop criterion's code.
/// </summary>
public sealed class LoadRunner(RunOptions options)
{
    public RunResult Run(CancellationToken cancel = default)
    {
        var endPoint = Resolve(options.Address);
        WarmUp.Run(options.Ammo);
        // Reading the ammo left tens of MB of garbage: collect it now, not as a pause in the first seconds.
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        // Read before the clock starts: scanning /proc takes milliseconds that must not delay the first sends.
        var cpu = new CpuMeter(options.Cpu);
        cpu.Start();
        var clock = new Clock();
        var start = DateTimeOffset.UtcNow;
        var sink = new ResultSink();
        var feed = new AmmoFeed(options.Ammo, options.Loop, options.AmmoLimit);
        var pool = new ConnectionPool(endPoint, options.Instances, clock, sink, options.Tag, options.ClosedModel ? feed : null);
        if (!options.ClosedModel)
        {
            pool.Preconnect(PreconnectCount());
            clock.Restart();
        }
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancel);
        using var monitor = new RunMonitor(options, clock, sink, pool);

        var scheduler = new Thread(() => { PreciseWait.TuneCurrentThread(); Schedule(clock, feed, pool, stop.Token); }) { IsBackground = true, Name = "tank-scheduler" };
        scheduler.Start();
        while (scheduler.IsAlive)
        {
            if (monitor.Tick() is not null || monitor.Decided is not null) stop.Cancel();
            Thread.Sleep(10);
        }
        // Stopping the pool keeps requests still waiting for an instance from going out late and,
        // in the closed model, keeps instances from looping on through the drain: the test ends
        // with its schedule, and only requests already sent are waited for.
        if (stop.IsCancellationRequested || options.ClosedModel) pool.Stop();
        Drain(monitor, pool, stop.Token);
        pool.CloseAll();
        monitor.Tick(final: true);
        var (cpuUsage, cpuWall) = cpu.Stop();

        var fired = monitor.Fired;
        return new RunResult
        {
            ExitCode = fired?.ExitCode ?? 0,
            AutostopReason = fired?.Explain(),
            Decided = monitor.Decided,
            Planned = options.ClosedModel ? options.Plan.Count : Math.Min(options.Plan.Count, Capacity()),
            Sent = pool.Sends,
            Responses = monitor.Responses,
            Errors = monitor.Errors,
            Start = start,
            End = DateTimeOffset.UtcNow,
            Lateness = monitor.Lateness,
            IntervalReal = monitor.IntervalReal,
            Intended = monitor.Intended,
            Cpu = cpuUsage,
            CpuWallSeconds = cpuWall,
        };
    }

    /// <summary>
    /// Connections to open up front: about one per 100 rps of the schedule's busiest second
    /// (enough for 10 ms answers at that rate), at least 16, never above <c>instances</c>.
    /// </summary>
    private int PreconnectCount()
    {
        var counts = options.Plan.CountsPerSecond();
        var peak = counts.Length == 0 ? 0 : counts.Max();
        return (int)Math.Min(options.Instances, Math.Max(16, peak / 100));
    }

    private long Capacity()
    {
        var perLoop = options.Loop < 0 ? long.MaxValue : Math.Max(1, options.Loop) * (long)options.Ammo.Count;
        return options.AmmoLimit < 0 ? perLoop : Math.Min(perLoop, options.AmmoLimit);
    }

    private void Schedule(Clock clock, AmmoFeed feed, ConnectionPool pool, CancellationToken token)
    {
        bool AmmoUsedUp() => options.ClosedModel && feed.Exhausted && pool.InFlight == 0;
        foreach (var ms in options.Plan.Timestamps())
        {
            var deadline = clock.StartTicks + Clock.TicksFromMs(ms);
            if (Clock.Now < deadline) PreciseWait.Until(deadline, token);
            if (token.IsCancellationRequested) return;
            // A closed model's instance schedule has a timestamp per instance-second: once finite
            // ammo is used up and answered, the test is over (as in Tank), not at the schedule's end.
            if (AmmoUsedUp()) return;
            if (options.ClosedModel) { pool.AddInstance(); continue; }
            var request = feed.Next();
            if (request is null) return; // the ammo ran out: Tank ends the test here too
            pool.Dispatch(request, deadline);
        }
        // Every step lasts its full duration, even a trailing const(0, …); a closed model with
        // finite ammo runs until its instances have used it up.
        var end = clock.StartTicks + Clock.TicksFromMs(options.Plan.DurationMs);
        var finiteAmmo = options.Loop >= 0 || options.AmmoLimit >= 0;
        while (!token.IsCancellationRequested && !AmmoUsedUp() && (Clock.Now < end || (options.ClosedModel && finiteAmmo)))
            PreciseWait.Until(Clock.Now + Clock.TicksFromMs(20), token);
    }

    // In-flight requests get until their timeout to answer; then the monitor fails them.
    private void Drain(RunMonitor monitor, ConnectionPool pool, CancellationToken token)
    {
        var deadline = Clock.Now + Clock.TicksFromMs(options.TimeoutMs + 500);
        while ((pool.InFlight > 0 || pool.Waiting > 0) && Clock.Now < deadline && !token.IsCancellationRequested)
        {
            monitor.Tick();
            Thread.Sleep(5);
        }
    }

    public static EndPoint Resolve(string address)
    {
        var (host, port) = SplitAddress(address);
        if (IPAddress.TryParse(host, out var ip)) return new IPEndPoint(ip, port);
        try
        {
            var addresses = Dns.GetHostAddresses(host);
            var chosen = addresses.FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork) ?? addresses.First();
            return new IPEndPoint(chosen, port);
        }
        catch (SocketException e)
        {
            throw new InputException($"address '{address}': cannot resolve host '{host}': {e.Message}");
        }
    }

    /// <summary>host:port, [ipv6]:port or host (port 80), as Tank's phantom.address.</summary>
    public static (string Host, int Port) SplitAddress(string address)
    {
        string host;
        var portText = "80";
        if (address.StartsWith('['))
        {
            var close = address.IndexOf(']');
            if (close < 0) throw new InputException($"address '{address}': missing ']'");
            host = address[1..close];
            if (close + 1 < address.Length) portText = address[(close + 2)..];
        }
        else if (address.Count(c => c == ':') == 1) (host, portText) = (address[..address.IndexOf(':')], address[(address.IndexOf(':') + 1)..]);
        else host = address;
        if (!int.TryParse(portText, out var port) || port is <= 0 or > 65535)
            throw new InputException($"address '{address}': '{portText}' is not a port");
        return (host, port);
    }
}
