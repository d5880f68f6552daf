using Harness.Processes;

namespace Crash.Control;

/// <summary>
/// The service under test: the published IntegrationService run from its own directory (so its
/// appsettings.json is the configuration it reads), on the matrix's URL, with the connection settings
/// of crash's environment (script/crashtest exports them), its output appended to one log. Started
/// fresh before every run, killed by service-kill, stopped at the end or when crash is interrupted.
/// Each start is tank's <see cref="ServiceProcess"/>.
/// </summary>
internal sealed class ServiceUnderTest(string directory, string url, string logFile) : IDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);
    private readonly ServiceStartOptions _options = new() { Directory = directory, AppendLog = true, StopTimeout = TimeSpan.FromSeconds(10) };
    private readonly Lock _gate = new();
    private ServiceProcess? _process;
    private IDisposable? _atExit;

    public int? Pid
    {
        get
        {
            lock (_gate) return _process?.Pid;
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
            log.Line($"kill -9 the service (pid {_process.Pid})");
            _process.KillNow();
            _process = null;
        }
        Start();
    }

    /// <summary>SIGTERM, and SIGKILL if it has not ended after 10 s.</summary>
    public void Stop()
    {
        lock (_gate)
        {
            _process?.Stop();
            _process = null;
            _atExit?.Dispose();
            _atExit = null;
        }
    }

    /// <summary>
    /// Empties a queue with the service's own tool (<c>IntegrationService purge-queue</c>, on the test instances' servers
    /// crash runs on); what it printed (the depth before and after).
    /// </summary>
    public string EmptyQueue(string queue) =>
        ProcessRunner.Checked("dotnet", [Path.Combine(directory, "IntegrationService.dll"), "purge-queue", "--queue", queue], CancellationToken.None).Trim();

    public void Dispose() => Stop();

    private void Start()
    {
        ServiceProcess process;
        lock (_gate)
        {
            process = _process = ServiceProcess.Start(Path.Combine(directory, "IntegrationService.dll"), url, logFile, _options);
            _atExit ??= ExitCleanup.Register(Stop);
        }
        process.WaitAnswering("/health/live", StartTimeout);
    }
}
