using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using Crash.Check;
using Tank.Runner;

namespace Crash;

/// <summary>Writes that were not acknowledged, by how they ended.</summary>
public sealed record FailureCounts
{
    public long Total { get; init; }
    [JsonPropertyName("http_503")]
    public long Http503 { get; init; }
    /// <summary>Any other status (a 2xx without the expected answer included).</summary>
    public long OtherStatus { get; init; }
    public long Timeout { get; init; }
    public long Connection { get; init; }
    /// <summary>The statuses counted in <see cref="OtherStatus"/>, each with its count.</summary>
    public SortedDictionary<string, long> OtherStatuses { get; init; } = new(StringComparer.Ordinal);

    /// <summary>Answers 500–599 but 503: a backend failure must be a 503 with Retry-After, never one of these.</summary>
    [JsonIgnore]
    public long ServerErrors => OtherStatuses.Where(s => s.Key.Length == 3 && s.Key[0] == '5' && s.Key != "503").Sum(s => s.Value);
}

/// <summary>One key that was not ok, as an example in the result.</summary>
public sealed record KeyExample(string Key, string Expected, string Actual, string Reason);

/// <summary>Up to <see cref="CrashResult.ExamplesPerClass"/> keys of each class that is not ok.</summary>
public sealed record CrashExamples
{
    public List<KeyExample> Lost { get; init; } = [];
    public List<KeyExample> Stale { get; init; } = [];
    public List<KeyExample> Changed { get; init; } = [];
    public List<KeyExample> Unverified { get; init; } = [];
}

/// <summary>
/// The result of a run of authors, items or key-value pairs (snake_case JSON). The key counts
/// ok + lost + stale + changed + unverified = keys_acked.
/// </summary>
public sealed record CrashResult : RunResult
{
    /// <summary>The item range (item runs only).</summary>
    public string? Items { get; init; }
    /// <summary>Writes not sent because every key was busy or retired.</summary>
    public long SkippedNoFreeKey { get; init; }
    /// <summary>Keys written to (an unacknowledged author save is a key of its own, id unknown).</summary>
    public long KeysWritten { get; init; }
    public long KeysAcked { get; init; }
    public long Ok { get; init; }
    /// <summary>Of <see cref="Ok"/>: keys holding the value of a write sent after the last acknowledged one, in doubt.</summary>
    public long OkFromInDoubt { get; init; }
    public long Changed { get; init; }
    public long Unverified { get; init; }
    public CrashExamples Examples { get; init; } = new();
    /// <summary>--truth-storage: the architecture holding the truth behind a cache (null without it).</summary>
    public string? TruthStorage { get; init; }
    /// <summary>
    /// With --truth-storage: keys written (acknowledged or not) that the tested architecture (a cache) answered
    /// differently from the truth after recovery — stale cache entries; null without it.
    /// </summary>
    public long? CacheDisagreements { get; init; }
    public KeyExample[] CacheDisagreementExamples { get; init; } = [];
    /// <summary>A cluster run's writes by owner and outage window (kind kv-cluster; absent otherwise).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public Cluster.OwnerSplit? Cluster { get; init; }

    public static CrashResult Read(string path) =>
        JsonSerializer.Deserialize<CrashResult>(File.ReadAllText(path), Json) ?? throw new JsonException($"{path}: empty");

    public override RowFacts Facts() => new(CrashKinds.Parse(Kind) ?? CrashKind.Author, Acked, Lost, Stale, Changed, Unverified,
        CacheDisagreements: CacheDisagreements ?? 0, ApiCameBack: ReadBackReadyS is not null, FaultExitCode: FaultExitCode, ServerErrors: Failed.ServerErrors,
        LostAgesMs: KnownLostAges, OldestHeldAgeMs: OldestHeldAgeMs, FaultError: FaultError);

    /// <summary>The one line crash run prints on stdout.</summary>
    public override string Summary()
    {
        var line = string.Create(CultureInfo.InvariantCulture,
            $"{Label}: {Acked} acked on {KeysAcked} keys: {Lost} lost, {Stale} stale, {Changed} changed, {Unverified} unverified; " +
            $"{Failed.Total} failed (503 {Failed.Http503}, other {Failed.OtherStatus}, timeout {Failed.Timeout}, conn {Failed.Connection})");
        if (Skipped + SkippedNoFreeKey > 0) line += $"; {Skipped + SkippedNoFreeKey} skipped";
        line += Recovery();
        if (CacheDisagreements is { } differ) line += $"; {differ} keys read differently through {TruthStorage}";
        if (ReadBackReadyS is null) line += "; the API did not answer the read-back";
        return line;
    }
}
