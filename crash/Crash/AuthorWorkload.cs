using System.Globalization;

namespace Crash;

/// <summary>
/// <c>--kind author</c>: saves new authors; every fourth write instead updates a previously
/// acknowledged author (picked at random among those free to write) with a new unique name.
/// </summary>
internal sealed class AuthorWorkload(string url, string storage, string runId, int seed) : ICrashWorkload
{
    private readonly string _storage = Uri.EscapeDataString(storage);
    private readonly AckedKeys _keys = new(seed);

    public WriteRecord? Next(long seq)
    {
        if (seq % 4 == 3 && _keys.TryPick() is { } key)
        {
            var update = AuthorBody.For(runId, seq, long.Parse(key, CultureInfo.InvariantCulture));
            return new WriteRecord(seq, key, creates: false, update.Canonical(), $"{url}/Author/Update?storage={_storage}", update.ToJson());
        }
        var save = AuthorBody.For(runId, seq);
        return new WriteRecord(seq, key: null, creates: true, save.Canonical(), $"{url}/Author/Save?storage={_storage}", save.ToJson());
    }

    public bool Acknowledges(WriteRecord write, int status, byte[] body)
    {
        if (!write.Creates) return status == 200;
        if (status != 201 || AuthorBody.FromJson(body) is not { Id: > 0 } created) return false;
        write.Key = created.Id.ToString(CultureInfo.InvariantCulture);
        return true;
    }

    public void Completed(WriteRecord write)
    {
        if (write.Creates)
        {
            if (write.Outcome != WriteOutcome.Acked) return;
            _keys.Add(write.Key!);
            return;
        }
        _keys.Guard.Release(write.Key!, retire: write.Outcome == WriteOutcome.InDoubt);
    }

    public string ReadUrl(string key) => $"{url}/Author/Get?id={key}&storage={_storage}";

    public ReadValue? ParseRead(int status, byte[] body) => status switch
    {
        200 => AuthorBody.FromJson(body) is { } author ? ReadValue.Of(author.Canonical()) : null,
        404 => ReadValue.Missing,
        _ => CrashHttp.Retryable(status) ? null : ReadValue.Unreadable,
    };

    public string ProbeUrl(string? firstAckedKey) =>
        firstAckedKey is null ? $"{url}/Author/GetAll?limit=1&storage={_storage}" : ReadUrl(firstAckedKey);

    public IReadOnlyList<string> KeysToReadBefore(long plannedWrites) => [];
}
