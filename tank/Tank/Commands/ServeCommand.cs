using System.CommandLine;
using Tank.SelfTest;
using Harness.CommandLine;

namespace Tank.Commands;

/// <summary><c>tank serve</c>: runs the trivial responder until Ctrl+C, for measuring the runner.</summary>
public sealed class ServeCommand : Command
{
    private readonly Option<long> _port = CliOption.Create("--port", "The loopback port to listen on (0: any free one)",
        ValueParsers.WholeNumber(min: 0, max: 65_535), "port").WithDefault(8099);

    public ServeCommand() : base("serve", "A trivial keep-alive HTTP responder on 127.0.0.1, for measuring the runner; Ctrl+C stops it")
    {
        Add(_port);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var server = new TrivialHttpServer((int)parse.GetRequiredValue(_port));
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
