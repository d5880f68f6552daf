using Harness.Processes;
using Harness;

namespace Lab.Tools;

/// <summary>
/// The service a tool starts for itself when it is given no <c>--url</c> (lab siege): its Release
/// build on its own port, its log in the run's directory, healthy before it is used, and stopped
/// when disposed. The servers it talks to come from the environment (script/lib.sh's
/// service_environment).
/// </summary>
public sealed class StartedService : IAsyncDisposable
{
    private readonly ServiceProcess _process;

    private StartedService(ServiceProcess process) => _process = process;

    public static async Task<StartedService> StartAsync(string serviceDll, string url, string logFile)
    {
        ToolLog.Write($"starting the service on {url}");
        var service = new StartedService(ServiceProcess.Start(serviceDll, url, logFile));
        try
        {
            // The poll blocks: on the pool, not on the epoll thread this may be resumed on (see DisposeAsync).
            await Task.Run(() => service._process.WaitAnswering("/health", TimeSpan.FromSeconds(60)));
            return service;
        }
        catch (Exception e)
        {
            await service.DisposeAsync();
            if (e is InvalidOperationException) throw new ToolException(e.Message);
            throw;
        }
    }

    // Stopping blocks until the service has exited and its output is drained. Tank runs socket
    // completions inline on the epoll thread (Program.cs), where this code may be resumed after
    // an HTTP call: blocking that thread there never returns, so the wait runs on the pool.
    public async ValueTask DisposeAsync() => await Task.Run(_process.Dispose);
}
