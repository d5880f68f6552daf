using System.Net.Http.Json;
using System.Text.Json;
using Lab.Report;
using Harness;

namespace Lab.Bench;

/// <summary>The few HTTP calls the bench makes besides the load: catalogue, an author id, a queue's depth, /metrics.</summary>
public sealed class ServiceClient(string baseUrl) : IDisposable
{
    private readonly HttpClient _http = new() { BaseAddress = new Uri(baseUrl), Timeout = TimeSpan.FromSeconds(10) };

    public string BaseUrl => baseUrl;

    public string Get(string path) => _http.GetStringAsync(path).GetAwaiter().GetResult();

    /// <summary>Saves one author and returns its id (ids are assigned in order, so this dates a block).</summary>
    public long SaveAuthor(string storage)
    {
        using var response = _http.PostAsJsonAsync($"/Author/Save?storage={Uri.EscapeDataString(storage)}", new { name = "bench", familyName = "range" }).GetAwaiter().GetResult();
        response.EnsureSuccessStatusCode();
        using var body = JsonDocument.Parse(response.Content.ReadAsStringAsync().GetAwaiter().GetResult());
        return body.RootElement.GetProperty("id").GetInt64();
    }

    public long QueueDepth(string queue)
    {
        using var body = JsonDocument.Parse(Get($"/depth/{Uri.EscapeDataString(queue)}"));
        return body.RootElement.GetProperty("depth").GetInt64();
    }

    /// <summary>
    /// The service's own view of a run: /metrics saved to a file. A failed scrape leaves an empty
    /// file (the report then says the server-side view is missing); the run goes on.
    /// </summary>
    public void ScrapeMetrics(string file)
    {
        try { File.WriteAllText(file, Get("/metrics")); }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
        {
            File.WriteAllText(file, "");
            ToolLog.Write($"could not read {baseUrl}/metrics: {e.Message}");
        }
    }

    /// <summary>
    /// The service's garbage collector's total pause so far, in seconds (the runtime's
    /// system_runtime_dotnet_gc_pause_time on /metrics); null when it cannot be read.
    /// </summary>
    public double? GcPauseSeconds()
    {
        try
        {
            return GcPauseSeconds(Get("/metrics"));
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
        {
            return null;
        }
    }

    /// <summary>The GC pause total of a Prometheus text scrape; null when it has none.</summary>
    public static double? GcPauseSeconds(string scrape)
    {
        const string name = "system_runtime_dotnet_gc_pause_time ";
        foreach (var line in scrape.AsSpan().EnumerateLines())
            if (line.StartsWith(name, StringComparison.Ordinal)
                && double.TryParse(line[name.Length..].Trim(), System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var seconds))
                return seconds;
        return null;
    }

    public void Dispose() => _http.Dispose();
}
