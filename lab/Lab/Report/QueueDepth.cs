using System.Text.Json;
using Harness.CommandLine;

namespace Lab.Report;

/// <summary>
/// <c>queue.json</c> beside a queue run's meta.json, written by script/bench: the messages waiting
/// when the measured run began and when it ended, and how many the bench put in before it. Any
/// field may be missing (the bench could not ask). It matters because a read from an empty queue
/// is answered at once with 204: a read run whose queue emptied stopped measuring reads.
/// </summary>
public sealed record QueueDepth
{
    private static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower };

    public string? Queue { get; init; }
    public long? DepthStart { get; init; }
    public long? DepthEnd { get; init; }
    public long? Prefilled { get; init; }

    /// <summary>Nothing was left when the run ended.</summary>
    public bool RanDry => DepthEnd == 0;

    /// <summary>The run directory's queue.json, or null when it has none.</summary>
    public static QueueDepth? TryRead(string runDir)
    {
        var path = Path.Combine(runDir, "queue.json");
        if (!File.Exists(path)) return null;
        try { return JsonSerializer.Deserialize<QueueDepth>(File.ReadAllText(path), Json) ?? throw new JsonException("null instead of an object"); }
        catch (JsonException e) { throw new InputException(path, $"line {(e.LineNumber ?? 0) + 1}", $"not valid queue.json: {e.Message}"); }
    }
}
