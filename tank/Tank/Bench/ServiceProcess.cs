using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Tank.Bench;

/// <summary>
/// The service under test, started from its Release build on its own port with its log in the
/// run directory, and stopped (SIGTERM, then SIGKILL after 30 s) when disposed.
/// </summary>
public sealed class ServiceProcess : IDisposable
{
    private const int SigTerm = 15;
    private readonly Process _process;
    private readonly StreamWriter _log;

    [DllImport("libc", EntryPoint = "kill")]
    private static extern int Kill(int pid, int signal);

    private ServiceProcess(Process process, StreamWriter log)
    {
        _process = process;
        _log = log;
    }

    public int Pid => _process.Id;

    public bool Exited => _process.HasExited;

    public static ServiceProcess Start(string serviceDll, string baseUrl, string logFile)
    {
        var info = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        foreach (var arg in new[] { serviceDll, "--urls", baseUrl, "--Logging:LogLevel:Default=Warning" }) info.ArgumentList.Add(arg);
        var log = new StreamWriter(logFile) { AutoFlush = true };
        var process = Process.Start(info) ?? throw new InvalidOperationException("could not start the service");
        process.StandardInput.Close();
        process.OutputDataReceived += (_, e) => Append(log, e.Data);
        process.ErrorDataReceived += (_, e) => Append(log, e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return new ServiceProcess(process, log);
    }

    private static void Append(StreamWriter log, string? line)
    {
        if (line is null) return;
        lock (log) log.WriteLine(line);
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            BenchLog.Write("stopping the service");
            Kill(_process.Id, SigTerm);
            if (!_process.WaitForExit(TimeSpan.FromSeconds(30))) _process.Kill(entireProcessTree: true);
        }
        _process.WaitForExit();
        _process.Dispose();
        lock (_log) _log.Dispose();
    }
}
