using Harness;
using Harness.Processes;
using System.Globalization;

namespace Lab.Cluster;

/// <summary>The service nodes of a cluster: node i on <c>port + i</c>, its pid file and log under the cluster's directory.</summary>
public sealed class ClusterNodes(ClusterSettings settings, int port) : IDisposable
{
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(2) };

    public string Url(int node) => string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port + node}");

    public int? Pid(int node) => ProcessRunner.PidIn(settings.PidFile(node));

    public bool Alive(int node) => Signals.IsRunning(Pid(node), "IntegrationService");

    /// <summary>The node's GET /v0/status answer, or null when it does not answer.</summary>
    public string? Status(int node)
    {
        try
        {
            using var response = _http.GetAsync($"{Url(node)}/v0/status").GetAwaiter().GetResult();
            return response.IsSuccessStatusCode ? response.Content.ReadAsStringAsync().GetAwaiter().GetResult() : null;
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
        {
            return null;
        }
    }

    /// <summary>Starts a node with the service's runtime settings (<see cref="ServiceRuntimeSettings"/>).</summary>
    public void Start(int node, IEnumerable<string> arguments) =>
        ProcessRunner.StartDetached(settings.PidFile(node), settings.LogFile(node),
            ["env", .. ServiceRuntimeSettings.Read(settings.ServiceDll).Select(s => $"{s.Key}={s.Value}"), "dotnet", settings.ServiceDll, "--urls", Url(node), .. arguments]);

    /// <summary>Waits up to a minute for the node to answer; false when it does not or its process is gone.</summary>
    public bool WaitUntilAnswering(int node)
    {
        for (var tries = 0; tries < 600; tries++)
        {
            if (Status(node) is not null) return true;
            if (!Alive(node)) return false;
            Thread.Sleep(100);
        }
        return false;
    }

    /// <summary>SIGTERM, and SIGKILL when the node has not gone after 10 s; then its pid file is removed.</summary>
    public void Stop(int node)
    {
        if (Alive(node) && Pid(node) is { } pid)
        {
            ToolLog.Write($"node {node}: stopping (pid {pid})");
            Signals.Send(pid, Signals.Term);
            for (var i = 0; i < 100 && Alive(node); i++) Thread.Sleep(100);
            if (Alive(node)) Signals.Send(pid, Signals.Kill);
        }
        File.Delete(settings.PidFile(node));
    }

    public void Dispose() => _http.Dispose();
}
