using System.Text.Json;

namespace Lab.Tools;

/// <summary><c>GET /depth/{queue}</c> of the service under test: the messages waiting, or null when it did not answer within 5 s.</summary>
public sealed class QueueDepthProbe(string baseUrl) : IDisposable
{
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(5) };

    public async Task<long?> DepthAsync(string queue)
    {
        try
        {
            using var response = await _http.GetAsync($"{baseUrl}/depth/{queue}");
            if (!response.IsSuccessStatusCode) return null;
            using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
            return json.RootElement.TryGetProperty("depth", out var depth) && depth.TryGetInt64(out var value) ? value : null;
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException or JsonException)
        {
            return null;
        }
    }

    public void Dispose() => _http.Dispose();
}
