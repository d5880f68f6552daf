using System.Diagnostics;

namespace Crash.Control;

/// <summary>
/// The service under test: the published IntegrationService run from its own directory (so its
/// appsettings.json is the configuration it reads), on the matrix's URL, with the connection settings
/// of crash's environment (script/crashtest exports them), its output appended to a log. Started
/// fresh before every run, killed by service-kill, stopped at the end or when crash is interrupted.
/// </summary>
internal sealed class ServiceProcess(string directory, string url, string logFile) : IDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(10);
    private readonly Lock _gate = new();
    private Process? _process;
    private IDisposable? _atExit;

    public int? Pid
    {
        get
        {
            lock (_gate) return _process?.Id;
        }
    }

    /// <summary>Stops the service if it runs, starts it and waits until <c>/health/live</c> answers.</summary>
    /// <exception cref="InvalidOperationException">It did not answer within 30 s.</exception>
    public void Restart()
    {
        Stop();
        Start();
    }

    /// <summary>SIGKILL, then a start (the service-kill fault), its progress in <paramref name="log"/>.</summary>
    public void KillAndStart(FaultLog log)
    {
        lock (_gate)
        {
            if (_process is null) throw new InvalidOperationException("the service is not running");
            log.Line($"kill -9 the service (pid {_process.Id})");
            _process.Kill();
            _process.WaitForExit();
            _process.Dispose();
            _process = null;
        }
        Start();
    }

    /// <summary>SIGTERM, and SIGKILL if it has not ended after 10 s.</summary>
    public void Stop()
    {
        lock (_gate)
        {
            if (_process is null) return;
            if (!_process.HasExited)
            {
                Signals.Send(_process.Id, Signals.Term);
                if (!_process.WaitForExit(StopTimeout)) _process.Kill();
                _process.WaitForExit();
            }
            _process.Dispose();
            _process = null;
            _atExit?.Dispose();
            _atExit = null;
        }
    }

    public void Dispose() => Stop();

    private void Start()
    {
        lock (_gate)
        {
            _process = ChildProcess.Start("dotnet", ["IntegrationService.dll", "--urls", url, "--Logging:LogLevel:Default=Warning"], logFile, directory);
            _atExit ??= ExitCleanup.Register(Stop);
        }
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var deadline = DateTime.UtcNow + StartTimeout;
        while (DateTime.UtcNow < deadline)
        {
            if (Pid is null || _process!.HasExited) break;
            try
            {
                using var answer = client.GetAsync(url + "/health/live").GetAwaiter().GetResult();
                if (answer.IsSuccessStatusCode) return;
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
            {
                // not listening yet
            }
            Thread.Sleep(250);
        }
        throw new InvalidOperationException($"the service did not start on {url}: see {logFile}");
    }
}
