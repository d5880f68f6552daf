using System.Globalization;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

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
/// The result of <c>crash run</c>, written as <c>--out</c> (snake_case JSON). Times are seconds
/// since the run started; the key counts ok + lost + stale + changed + unverified = keys_acked.
/// </summary>
public sealed record CrashResult
{
    public const int ExamplesPerClass = 5;

    public static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        WriteIndented = true,
        // A file for people and scripts, never HTML: keep &&, > and quotes in commands and values readable.
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    public string Label { get; init; } = "";
    public string Storage { get; init; } = "";
    public string Kind { get; init; } = "";
    public string Url { get; init; } = "";
    public string RunId { get; init; } = "";
    public DateTimeOffset StartedAt { get; init; }
    public double Rate { get; init; }
    public double Seconds { get; init; }
    public long TimeoutMs { get; init; }
    /// <summary>The item range (item runs only).</summary>
    public string? Items { get; init; }
    public double FaultAtS { get; init; }
    public string FaultCmd { get; init; } = "";
    public int? FaultExitCode { get; init; }
    public double? FaultStartedS { get; init; }
    public double? FaultEndedS { get; init; }
    public string FaultStderrTail { get; init; } = "";
    public string? FaultError { get; init; }
    public long Planned { get; init; }
    public long Sent { get; init; }
    public long Acked { get; init; }
    public FailureCounts Failed { get; init; } = new();
    /// <summary>Writes of those failed whose outcome is in doubt (timeout, connection error, 5xx): they may have been applied.</summary>
    public long InDoubt { get; init; }
    /// <summary>Writes not sent because the cap on writes in flight was reached.</summary>
    public long Skipped { get; init; }
    /// <summary>Writes not sent because every key was busy or retired.</summary>
    public long SkippedNoFreeKey { get; init; }
    /// <summary>Keys written to (an unacknowledged author save is a key of its own, id unknown).</summary>
    public long KeysWritten { get; init; }
    public long KeysAcked { get; init; }
    public long Ok { get; init; }
    /// <summary>Of <see cref="Ok"/>: keys holding the value of a write sent after the last acknowledged one, in doubt.</summary>
    public long OkFromInDoubt { get; init; }
    public long Lost { get; init; }
    public long Stale { get; init; }
    public long Changed { get; init; }
    public long Unverified { get; init; }
    public double? RecoveryS { get; init; }
    public double? FirstFailureS { get; init; }
    public double? LastFailureS { get; init; }
    /// <summary>When the API answered the read-back's probe; null if it never did within --recover-seconds.</summary>
    public double? ReadBackReadyS { get; init; }
    public CrashExamples Examples { get; init; } = new();
    /// <summary>--truth-storage: the architecture holding the truth behind a cache (null without it).</summary>
    public string? TruthStorage { get; init; }
    /// <summary>
    /// With --truth-storage: keys written (acknowledged or not) that the tested architecture (a cache) answered
    /// differently from the truth after recovery — stale cache entries; null without it.
    /// </summary>
    public long? CacheDisagreements { get; init; }
    public KeyExample[] CacheDisagreementExamples { get; init; } = [];

    public void Write(string path) => File.WriteAllText(path, JsonSerializer.Serialize(this, Json) + "\n");

    public static CrashResult Read(string path) =>
        JsonSerializer.Deserialize<CrashResult>(File.ReadAllText(path), Json) ?? throw new JsonException($"{path}: empty");

    /// <summary>The one line crash run prints on stdout.</summary>
    public string Summary()
    {
        var line = string.Create(CultureInfo.InvariantCulture,
            $"{Label}: {Acked} acked on {KeysAcked} keys: {Lost} lost, {Stale} stale, {Changed} changed, {Unverified} unverified; " +
            $"{Failed.Total} failed (503 {Failed.Http503}, other {Failed.OtherStatus}, timeout {Failed.Timeout}, conn {Failed.Connection})");
        if (Skipped + SkippedNoFreeKey > 0) line += $"; {Skipped + SkippedNoFreeKey} skipped";
        line += Failed.Total == 0 ? "; no write failed"
            : RecoveryS is { } recovery ? string.Create(CultureInfo.InvariantCulture, $"; API back {recovery:F2} s after the fault")
            : "; writes never acknowledged again after the fault";
        if (CacheDisagreements is { } differ) line += $"; {differ} keys read differently through {TruthStorage}";
        if (ReadBackReadyS is null) line += "; the API did not answer the read-back";
        return line;
    }
}
