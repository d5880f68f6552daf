using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace Beanstalkd.Client.Tests;

/// <summary>
/// A beanstalkd of a test's own, on a free port with its data in a temporary directory, so the
/// test can kill and restart it without touching any other server. script/services starts,
/// reports and stops it (the one place that knows how a server is run: the same flags and binlog
/// as every other beanstalkd of the project). A missing beanstalkd binary fails the test.
/// </summary>
internal sealed class BeanstalkdProcess : IAsyncDisposable
{
    private readonly string _dataDirectory;

    private BeanstalkdProcess(int port, string dataDirectory)
    {
        Port = port;
        _dataDirectory = dataDirectory;
    }

    public int Port { get; }

    /// <summary>Starts a new server and waits until it answers.</summary>
    public static async Task<BeanstalkdProcess> StartAsync()
    {
        var server = new BeanstalkdProcess(FreePort(), Directory.CreateTempSubdirectory("bsk-test-").FullName);
        await server.RestartAsync();
        return server;
    }

    /// <summary>Starts the server (again) on the same port and binlog, and waits until it answers.</summary>
    public async Task RestartAsync()
    {
        Assert.Null(await PidAsync());
        await ServicesAsync("up");
    }

    /// <summary>SIGKILL: no chance to flush anything; what survives is what the binlog already holds.</summary>
    public async Task KillAsync()
    {
        if (await PidAsync() is not { } pid) return;
        Process.GetProcessById(pid).Kill();
        // Not WaitForExit: the server is not this process's child, and who reaps it is not ours to know.
        var waited = Stopwatch.StartNew();
        while (IsRunning(pid))
        {
            Assert.True(waited.Elapsed < TimeSpan.FromSeconds(10), $"beanstalkd (pid {pid}) did not die");
            await Task.Delay(10);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await ServicesAsync("down");
        Directory.Delete(_dataDirectory, recursive: true);
    }

    private async Task<int?> PidAsync()
    {
        var (code, output) = await RunServicesAsync("pid");
        return code == 0 ? int.Parse(output.Trim(), CultureInfo.InvariantCulture) : null;
    }

    private async Task ServicesAsync(string command)
    {
        var (code, output) = await RunServicesAsync(command);
        Assert.True(code == 0, $"script/services {command} beanstalkd exited {code}:\n{output}");
    }

    private async Task<(int Code, string Output)> RunServicesAsync(string command)
    {
        var info = new ProcessStartInfo(Services, [command, "beanstalkd"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            Environment = { ["DATA_DIR"] = _dataDirectory, ["BEANSTALKD_PORT"] = Port.ToString(CultureInfo.InvariantCulture) },
        };
        using var process = Process.Start(info)!;
        var error = process.StandardError.ReadToEndAsync();
        var output = await process.StandardOutput.ReadToEndAsync();
        var log = await error;
        await process.WaitForExitAsync();
        // pid's answer is its output alone; the others' is what they logged, for a failure's message.
        return (process.ExitCode, command == "pid" ? output : output + log);
    }

    // A zombie (killed, not yet reaped) has an empty command line: it is as dead as it gets.
    private static bool IsRunning(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline").Length > 0;
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static string Services { get; } = FindServices();

    private static string FindServices()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var services = Path.Combine(dir.FullName, "script", "services");
            if (File.Exists(services)) return services;
        }
        throw new InvalidOperationException("script/services not found above the test binaries");
    }

    // A free port below the kernel's ephemeral range (32768 and up by default), which script/services
    // refuses: a port the kernel hands out (port 0) could be taken by an outgoing connection before the
    // server binds it. 28000-32767 holds none of infra/config/ports.txt's ports.
    private static int FreePort()
    {
        for (var attempt = 0; attempt < 100; attempt++)
        {
            var port = Random.Shared.Next(28000, 32768);
            try
            {
                using var listener = new TcpListener(IPAddress.Loopback, port);
                listener.Start();
                return port;
            }
            catch (SocketException)
            {
                // taken: another one
            }
        }
        throw new InvalidOperationException("no free port in 28000-32767");
    }
}
