using Tank.Bench;

namespace Tank.Tools;

/// <summary>
/// The service a tool starts for itself when it is given no <c>--url</c> (tank siege): its Release
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
        BenchLog.Write($"starting the service on {url}");
        var service = new StartedService(ServiceProcess.Start(serviceDll, url, logFile));
        try
        {
            using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
            for (var tries = 0; tries < 120; tries++)
            {
                if (await HealthyAsync(http, url)) return service;
                if (service._process.Exited) throw new ToolException($"the service exited: see {logFile}");
                await Task.Delay(500);
            }
            throw new ToolException($"the service is not healthy on {url}/health after 60 s: see {logFile}");
        }
        catch
        {
            await service.DisposeAsync();
            throw;
        }
    }

    private static async Task<bool> HealthyAsync(HttpClient http, string url)
    {
        try
        {
            using var response = await http.GetAsync($"{url}/health");
            return response.IsSuccessStatusCode;
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
        {
            return false;
        }
    }

    // Stopping blocks until the service has exited and its output is drained. Tank runs socket
    // completions inline on the epoll thread (Program.cs), where this code may be resumed after
    // an HTTP call: blocking that thread there never returns, so the wait runs on the pool.
    public async ValueTask DisposeAsync() => await Task.Run(_process.Dispose);
}
