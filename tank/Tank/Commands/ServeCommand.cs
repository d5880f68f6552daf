using Tank.SelfTest;

namespace Tank.Commands;

/// <summary><c>tank serve</c>: runs the trivial responder until Ctrl+C, for measuring the runner.</summary>
public static class ServeCommand
{
    public static int Run(CliArgs args)
    {
        var port = (int)args.Long("port", 8099);
        args.Reject();
        var server = new TrivialHttpServer(port);
        Console.Error.WriteLine($"tank: trivial HTTP responder on 127.0.0.1:{server.Port}; Ctrl+C stops it");
        using var done = new ManualResetEventSlim();
        Console.CancelKeyPress += (_, e) => { e.Cancel = true; done.Set(); };
        using var term = System.Runtime.InteropServices.PosixSignalRegistration.Create(
            System.Runtime.InteropServices.PosixSignal.SIGTERM, c => { c.Cancel = true; done.Set(); });
        done.Wait();
        server.DisposeAsync().AsTask().GetAwaiter().GetResult();
        Console.Error.WriteLine($"tank: answered {server.Requests} requests");
        return 0;
    }
}
