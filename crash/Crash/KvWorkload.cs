using System.Globalization;
using System.Text;

namespace Crash;

/// <summary>
/// <c>--kind kv</c>: <c>PUT /v0/entity?id=</c> of values unique per write to keys under the run's
/// prefix (<c>crash-&lt;run id&gt;-&lt;n&gt;</c>, so no test's key is touched); every fourth write instead
/// overwrites a key already acknowledged (picked at random among those free to write), so a lost
/// overwrite shows as stale. Acknowledged = 201.
/// </summary>
internal sealed class KvWorkload(string url, string storage, string runId, int seed) : ICrashWorkload
{
    private readonly string _storage = Uri.EscapeDataString(storage);
    private readonly AckedKeys _keys = new(seed);

    /// <summary>The value write <paramref name="seq"/> carries: unique within the run, so equality names the write.</summary>
    public static string ValueOf(string runId, long seq) => $"v-{runId}-{seq.ToString(CultureInfo.InvariantCulture)}";

    public WriteRecord? Next(long seq)
    {
        var key = seq % 4 == 3 && _keys.TryPick() is { } picked ? picked : NewKey(seq);
        var value = ValueOf(runId, seq);
        return new WriteRecord(seq, key, creates: false, value, ReadUrl(key), Encoding.UTF8.GetBytes(value)) { Method = HttpMethod.Put };
    }

    public bool Acknowledges(WriteRecord write, int status, byte[] body) => status == 201;

    public void Completed(WriteRecord write)
    {
        var retire = write.Outcome == WriteOutcome.InDoubt;
        _keys.Guard.Release(write.Key!, retire);
        if (write.Outcome == WriteOutcome.Acked && !retire) _keys.Add(write.Key!);
    }

    public string ReadUrl(string key) => $"{url}/v0/entity?id={Uri.EscapeDataString(key)}&storage={_storage}";

    public ReadValue? ParseRead(int status, byte[] body) => status switch
    {
        200 => ReadValue.Of(Encoding.UTF8.GetString(body)),
        404 => ReadValue.Missing,
        _ => CrashHttp.Retryable(status) ? null : ReadValue.Unreadable,
    };

    /// <summary>A key no write uses: 404 once the API answers.</summary>
    public string ProbeUrl(string? firstAckedKey) => ReadUrl(firstAckedKey ?? $"crash-{runId}-probe");

    public IReadOnlyList<string> KeysToReadBefore(long plannedWrites) => [];

    private string NewKey(long seq)
    {
        var key = $"crash-{runId}-{seq.ToString(CultureInfo.InvariantCulture)}";
        _keys.Guard.TryTake(key); // a new key is always free
        return key;
    }
}
