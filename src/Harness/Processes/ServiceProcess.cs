using System.Diagnostics;

namespace Harness.Processes;

/// <summary>
/// The service under test, started from its build on its own port with its output in a log file;
/// <see cref="WaitAnswering"/> polls it until it serves, and it is stopped (SIGTERM, then SIGKILL
/// after <see cref="ServiceStartOptions.StopTimeout"/>) when disposed, or killed outright (a crash
/// test's fault).
/// </summary>
public sealed class ServiceProcess : IDisposable
{
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(250);
    private readonly Process _process;
    private readonly StreamWriter _log;
    private readonly string _baseUrl;
    private readonly string _logFile;
    private readonly TimeSpan _stopTimeout;
    private bool _stopped;

    private ServiceProcess(Process process, StreamWriter log, string baseUrl, string logFile, TimeSpan stopTimeout)
    {
        (_process, _log, _baseUrl, _logFile, _stopTimeout) = (process, log, baseUrl, logFile, stopTimeout);
    }

    public int Pid => _process.Id;

    public bool Exited => _process.HasExited;

    /// <summary>
    /// Settings of the tool that starts the service, never passed on to it: the crash tester runs
    /// with a small gen0 budget of its own (script/crashtest), and the service under test runs with
    /// its own (<see cref="ServiceRuntimeSettings"/>).
    /// </summary>
    public static readonly IReadOnlyList<string> ToolOnlyVariables = ["DOTNET_GCgen0size"];

    /// <summary>
    /// The environment the service starts with: the tool's, without <see cref="ToolOnlyVariables"/>,
    /// with the service's runtime settings (runtime.env beside <paramref name="serviceDll"/>) over it.
    /// </summary>
    public static void SetEnvironment(IDictionary<string, string?> environment, string serviceDll)
    {
        foreach (var name in ToolOnlyVariables) environment.Remove(name);
        foreach (var (name, value) in ServiceRuntimeSettings.Read(serviceDll)) environment[name] = value;
    }

    public static ServiceProcess Start(string serviceDll, string baseUrl, string logFile, ServiceStartOptions? options = null)
    {
        options ??= ServiceStartOptions.Default;
        var info = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = options.Directory ?? "",
        };
        SetEnvironment(info.Environment, serviceDll);
        foreach (var arg in new[] { serviceDll, "--urls", baseUrl, "--Logging:LogLevel:Default=Warning" }.Concat(options.Arguments)) info.ArgumentList.Add(arg);
        var log = new StreamWriter(logFile, options.AppendLog) { AutoFlush = true };
        var process = Process.Start(info) ?? throw new InvalidOperationException("could not start the service");
        process.StandardInput.Close();
        process.OutputDataReceived += (_, e) => Append(log, e.Data);
        process.ErrorDataReceived += (_, e) => Append(log, e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return new ServiceProcess(process, log, baseUrl, logFile, options.StopTimeout);
    }

    /// <summary>Polls <paramref name="path"/> (e.g. <c>/health</c>) until it answers 2xx.</summary>
    /// <exception cref="InvalidOperationException">The service exited, or did not answer within <paramref name="timeout"/>; the message names the log.</exception>
    public void WaitAnswering(string path, TimeSpan timeout, CancellationToken cancel = default)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            if (_process.HasExited) throw new InvalidOperationException($"the service exited: see {_logFile}");
            try
            {
                using var answer = http.GetAsync(_baseUrl + path, cancel).GetAwaiter().GetResult();
                if (answer.IsSuccessStatusCode) return;
            }
            catch (Exception e) when (e is HttpRequestException || (e is TaskCanceledException && !cancel.IsCancellationRequested))
            {
                // not listening yet
            }
            if (DateTime.UtcNow > deadline)
                throw new InvalidOperationException($"the service did not answer {_baseUrl}{path} within {timeout.TotalSeconds:0} s: see {_logFile}");
            Task.Delay(PollInterval, cancel).GetAwaiter().GetResult();
        }
    }

    /// <summary>SIGKILL, and waits until it has ended (crash's service-kill fault).</summary>
    public void KillNow()
    {
        if (!_process.HasExited) _process.Kill(entireProcessTree: true);
        Stop();
    }

    /// <summary>SIGTERM, then SIGKILL if it has not ended in time; waits until it has ended and its output is in the log. Idempotent.</summary>
    public void Stop()
    {
        if (_stopped) return;
        _stopped = true;
        if (!_process.HasExited)
        {
            Signals.Send(_process.Id, Signals.Term);
            if (!_process.WaitForExit(_stopTimeout)) _process.Kill(entireProcessTree: true);
        }
        _process.WaitForExit();
        _process.Dispose();
        lock (_log) _log.Dispose();
    }

    public void Dispose()
    {
        if (!_stopped && !_process.HasExited) ToolLog.Write("stopping the service");
        Stop();
    }

    private static void Append(StreamWriter log, string? line)
    {
        if (line is null) return;
        lock (log) log.WriteLine(line);
    }
}
