using System.Net;
using Tank.Ammo;
using Tank.SelfTest;

namespace Tank.Runner;

/// <summary>
/// Runs the whole send/receive/record path against an in-process responder before the test
/// starts, so JIT compilation and socket-engine start-up do not show up as late sends in the
/// first second. Nothing reaches the target.
/// </summary>
public static class WarmUp
{
    public static void Run(IReadOnlyList<AmmoRequest> ammo, int requests = 2000)
    {
        var server = new TrivialHttpServer();
        try
        {
            var clock = new Clock();
            var sink = new ResultSink();
            var pool = new ConnectionPool(new IPEndPoint(IPAddress.Loopback, server.Port), 8, clock, sink, null, null);
            var line = new byte[PhoutFormat.MaxLineBytes];
            var deadline = Clock.Now + Clock.TicksFromMs(3000);
            for (var i = 0; i < requests && Clock.Now < deadline; i++)
            {
                pool.Dispatch(ammo[i % ammo.Count], Clock.Now);
                while (pool.InFlight > 4 && Clock.Now < deadline) Thread.Yield();
                foreach (var record in sink.Drain()) PhoutFormat.Format(record, line);
            }
            while (pool.InFlight > 0 && Clock.Now < deadline) Thread.Sleep(1);
            pool.ExpireTimeouts(long.MaxValue / 4);
            pool.CloseAll();
        }
        finally
        {
            server.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
    }
}
