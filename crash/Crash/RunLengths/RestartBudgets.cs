using System.Text.Json;
using System.Text.Json.Serialization;
using Harness.CommandLine;

namespace Crash.RunLengths;

/// <summary>
/// restart-budgets.json (beside crash.dll, or --restart-budgets): the seconds each server, and the
/// service, may take to answer again after a kill. A fault run lasts at least its fault's budget
/// past the fault's start (<see cref="RunLength"/>), so that the run does not end before the
/// recovery it is meant to measure.
/// </summary>
public sealed record RestartBudgets
{
    public const string FileName = "restart-budgets.json";

    private static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
    };

    /// <summary>Seconds from kill -9 until <c>script/services up</c> has the server answering again, by the catalogue's server name.</summary>
    public required IReadOnlyDictionary<string, double> Servers { get; init; }
    /// <summary>The budget of a server not in <see cref="Servers"/>.</summary>
    public required double UnlistedServer { get; init; }
    /// <summary>Seconds from a kill of the service (or a cluster node) until it answers again.</summary>
    public required double Service { get; init; }

    /// <summary>The file shipped beside crash.dll.</summary>
    public static string DefaultPath => Path.Combine(AppContext.BaseDirectory, FileName);

    /// <summary>Reads the file; a missing or malformed one, or a budget that is not a positive number, is bad input naming the file.</summary>
    public static RestartBudgets Load(string path)
    {
        if (!File.Exists(path)) throw new InputException(path, "file", "restart budgets not found");
        RestartBudgets budgets;
        try { budgets = JsonSerializer.Deserialize<RestartBudgets>(File.ReadAllText(path), Json) ?? throw new JsonException("null instead of an object"); }
        catch (JsonException e) { throw new InputException(path, $"line {(e.LineNumber ?? 0) + 1}", $"not valid restart budgets: {e.Message}"); }
        foreach (var (name, seconds) in budgets.Servers.Append(new("unlisted_server", budgets.UnlistedServer)).Append(new("service", budgets.Service)))
        {
            if (!(seconds > 0)) throw new InputException(path, name, $"a restart budget must be a positive number of seconds, got {seconds}");
        }
        return budgets;
    }

    /// <summary>The servers killed (or power-cut) and started again: the sum of their budgets, since <c>script/services up</c> starts one after the other.</summary>
    public FaultBudget ServersRestart(IReadOnlyList<string> servers)
    {
        var parts = servers.Select(s => (Name: s, Seconds: Servers.TryGetValue(s, out var b) ? b : UnlistedServer, Listed: Servers.ContainsKey(s))).ToList();
        return new FaultBudget(parts.Sum(p => p.Seconds), string.Join(" + ", parts.Select(p =>
            FaultBudget.Text($"{p.Name}'s restart budget {p.Seconds} s{(p.Listed ? "" : " (unlisted)")}"))));
    }

    /// <summary>The service killed and started again.</summary>
    public FaultBudget ServiceRestart() => new(Service, FaultBudget.Text($"the service's restart budget {Service} s"));

    /// <summary>A cluster node killed, left down for --stop-seconds, then started again.</summary>
    public FaultBudget NodeRestart(double stopSeconds) =>
        new(stopSeconds + Service, FaultBudget.Text($"--stop-seconds {stopSeconds} s + the service's restart budget {Service} s"));
}
