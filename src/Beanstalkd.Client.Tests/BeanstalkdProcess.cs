using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Beanstalkd.Client.Tests;

/// <summary>
/// A beanstalkd a test starts itself, on a free port with a binlog in a temporary directory, so it
/// can kill and restart it without touching any other server. A missing beanstalkd binary fails
/// the test.
/// </summary>
internal sealed class BeanstalkdProcess : IAsyncDisposable
{
    private Process? _process;

    private BeanstalkdProcess(int port, string binlogDirectory)
    {
        Port = port;
        BinlogDirectory = binlogDirectory;
    }

    public int Port { get; }

    public string BinlogDirectory { get; }

    /// <summary>Starts a new server and waits until it accepts connections.</summary>
    public static async Task<BeanstalkdProcess> StartAsync()
    {
        var directory = Directory.CreateTempSubdirectory("bsk-test-").FullName;
        var server = new BeanstalkdProcess(FreePort(), directory);
        await server.RestartAsync();
        return server;
    }

    /// <summary>Starts the server (again) on the same port and binlog, and waits until it accepts connections.</summary>
    public async Task RestartAsync()
    {
        Assert.True(_process is null or { HasExited: true }, "beanstalkd is still running");
        _process = Process.Start(new ProcessStartInfo("beanstalkd",
            ["-l", "127.0.0.1", "-p", Port.ToString(), "-b", BinlogDirectory])
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        })!;
        var waited = Stopwatch.StartNew();
        while (true)
        {
            if (_process.HasExited)
            {
                Assert.Fail($"beanstalkd exited with {_process.ExitCode}: {await _process.StandardError.ReadToEndAsync()}");
            }
            try
            {
                using var probe = new TcpClient();
                await probe.ConnectAsync(IPAddress.Loopback, Port);
                return;
            }
            catch (SocketException) when (waited.Elapsed < TimeSpan.FromSeconds(20))
            {
                await Task.Delay(20);
            }
        }
    }

    /// <summary>SIGKILL: no chance to flush anything; what survives is what the binlog already holds.</summary>
    public async Task KillAsync()
    {
        if (_process is null || _process.HasExited) return;
        _process.Kill();
        await _process.WaitForExitAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await KillAsync();
        _process?.Dispose();
        Directory.Delete(BinlogDirectory, recursive: true);
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
