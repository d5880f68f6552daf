using System.Text;
using System.Text.Json;

namespace IntegrationService.Tests.Fixtures;

/// <summary>Tests that move a Patroni topology's primary, or must not see it move: one at a time.</summary>
[CollectionDefinition("Patroni")]
public sealed class PatroniCollection;

/// <summary>
/// The tests' postgres-patroni and postgres-patroni-sync (script/services --test): their primary as script/services reads it
/// (<c>primary</c>, <c>status</c>), and a switchover through Patroni's own REST API, as an operator would start one.
/// </summary>
public static class PatroniTopology
{
    public static string Name(bool synchronous) => synchronous ? "postgres-patroni-sync" : "postgres-patroni";

    /// <summary>The primary's address, or null while the nodes name none (an election).</summary>
    public static async Task<string?> PrimaryAsync(bool synchronous)
    {
        var (code, output, _) = await RepositoryRoot.TryServicesAsync("primary", Name(synchronous));
        return code == 0 ? output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault() : null;
    }

    /// <summary>Asks the primary's Patroni to hand over to a replica, and waits until another node is the primary and every node is whole.</summary>
    public static async Task FailoverAsync(bool synchronous)
    {
        var name = Name(synchronous);
        var before = await PrimaryAsync(synchronous) ?? throw new InvalidOperationException($"{name}: no primary (script/services --test up {name})");
        var nodes = PortTable.PatroniNodes(synchronous);
        var member = $"node{nodes.ToList().IndexOf(before) + 1}";
        using (var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) })
        {
            // Patroni's REST API wants a Content-Length: a string body, not a streamed one.
            using var body = new StringContent(JsonSerializer.Serialize(new { leader = member }), Encoding.UTF8, "application/json");
            using var answer = await http.PostAsync($"http://{before}:{TestServers.PatroniPort(synchronous) + 1000}/switchover", body);
            if (!answer.IsSuccessStatusCode) throw new InvalidOperationException($"{name}: the switchover from {member} answered {(int)answer.StatusCode}: {await answer.Content.ReadAsStringAsync()}");
        }
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (DateTime.UtcNow < deadline)
        {
            if (await PrimaryAsync(synchronous) is { } now && now != before && (await RepositoryRoot.TryServicesAsync("status", name)).Code == 0) return;
            await Task.Delay(200);
        }
        throw new TimeoutException($"{name}: no other node is the primary within 60 s of the switchover from {before}");
    }
}
