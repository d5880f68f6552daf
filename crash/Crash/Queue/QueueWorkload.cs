using System.Globalization;

namespace Crash.Queue;

/// <summary>
/// The writes of <c>--kind queue</c>: <c>POST /write/{queue}</c> of a message naming its write
/// (<see cref="QueueMessage"/>); acknowledged = 201. The key of a write is its sequence number.
/// Messages are read by <see cref="QueueReader"/>, not by the key read-back.
/// </summary>
internal sealed class QueueWorkload(string url, string storage, string runId) : ICrashWorkload
{
    private readonly string _queue = Uri.EscapeDataString(storage);

    public string ReadMessageUrl => $"{url}/read/{_queue}";

    public WriteRecord? Next(long seq)
    {
        var key = seq.ToString(CultureInfo.InvariantCulture);
        return new WriteRecord(seq, key, creates: false, key, $"{url}/write/{_queue}", QueueMessage.Body(runId, seq));
    }

    public bool Acknowledges(WriteRecord write, int status, byte[] body) => status == 201;

    public void Completed(WriteRecord write) { }

    public string ReadUrl(string key) => ReadMessageUrl;

    public ReadValue? ParseRead(int status, byte[] body) => null;

    /// <summary>The queue's depth: 200 once the API and the queue's server answer.</summary>
    public string ProbeUrl(string? firstAckedKey) => $"{url}/depth/{_queue}";

    public IReadOnlyList<string> KeysToReadBefore(long plannedWrites) => [];
}
