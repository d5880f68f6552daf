using Tank.Commands;
using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Crash;

/// <summary>
/// <c>--kind item</c>: replaces item location sets, cycling through the item range so each item is
/// overwritten several times; a busy or retired item is passed over for the next one.
/// </summary>
internal sealed class ItemWorkload(string url, string storage, KeyRange items, long salt, long blocks) : ICrashWorkload
{
    /// <summary>How far past the planned writes the pre-run read reaches (keys passed over push the cursor on).</summary>
    private const long BeforeSlack = 5_000;
    private readonly string _storage = Uri.EscapeDataString(storage);
    private readonly KeyGuard _guard = new();
    private long _cursor;

    public WriteRecord? Next(long seq)
    {
        for (long tried = 0; tried < items.Count; tried++)
        {
            var key = (items.First + _cursor).ToString(CultureInfo.InvariantCulture);
            _cursor = (_cursor + 1) % items.Count;
            if (!_guard.TryTake(key)) continue;
            var ids = ItemLocations.For(seq, salt, blocks);
            var body = JsonSerializer.SerializeToUtf8Bytes(new LocationsBody(ids));
            return new WriteRecord(seq, key, creates: false, ItemLocations.Canonical(ids), ReadUrl(key), body);
        }
        return null;
    }

    public bool Acknowledges(WriteRecord write, int status, byte[] body) => status == 200;

    public void Completed(WriteRecord write) => _guard.Release(write.Key!, retire: write.Outcome == WriteOutcome.InDoubt);

    public string ReadUrl(string key) => $"{url}/item/{key}/locations?storage={_storage}";

    public ReadValue? ParseRead(int status, byte[] body) => status switch
    {
        200 => ParseLocations(body),
        404 => ReadValue.Missing,
        _ => CrashHttp.Retryable(status) ? null : ReadValue.Unreadable,
    };

    public string ProbeUrl(string? firstAckedKey) =>
        ReadUrl(firstAckedKey ?? items.First.ToString(CultureInfo.InvariantCulture));

    public IReadOnlyList<string> KeysToReadBefore(long plannedWrites)
    {
        var count = Math.Min(items.Count, plannedWrites + BeforeSlack);
        var keys = new string[count];
        for (long i = 0; i < count; i++) keys[i] = (items.First + i).ToString(CultureInfo.InvariantCulture);
        return keys;
    }

    /// <summary>The API's answer: an array of locations, each with its id in "ID".</summary>
    internal static ReadValue? ParseLocations(byte[] body)
    {
        try
        {
            return JsonSerializer.Deserialize<LocationRow[]>(body) is { } rows ? ReadValue.Of(ItemLocations.Canonical(rows.Select(r => r.Id))) : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private sealed record LocationsBody([property: JsonPropertyName("LocationIds")] long[] LocationIds);

    private sealed record LocationRow([property: JsonPropertyName("ID")] long Id);
}
