using System.Collections.Concurrent;

namespace Crash;

/// <summary>
/// Reads keys back after the crash (and items before the run): waits for the API to answer, then
/// reads every key with a few retries on 5xx, timeouts and connection errors.
/// </summary>
internal sealed class ReadBack(HttpClient client, ICrashWorkload workload)
{
    public const int Attempts = 5;
    private const int Parallelism = 16;
    private static readonly TimeSpan FirstBackoff = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(250);

    /// <summary>Polls <paramref name="url"/> until it answers 2xx or 404; false if it never does within <paramref name="seconds"/>.</summary>
    public async Task<bool> WaitForApiAsync(string url, double seconds)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        while (true)
        {
            var answer = await CrashHttp.SendAsync(client, url, body: null).ConfigureAwait(false);
            if (answer.NoAnswer is null && answer.Status is >= 200 and < 300 or 404) return true;
            if (DateTime.UtcNow + PollInterval > deadline) return false;
            await Task.Delay(PollInterval).ConfigureAwait(false);
        }
    }

    /// <summary>Every key's value; a key whose reads all fail is <see cref="ReadValue.Unreadable"/>.</summary>
    public async Task<IReadOnlyDictionary<string, ReadValue>> ReadAllAsync(IEnumerable<string> keys)
    {
        var values = new ConcurrentDictionary<string, ReadValue>(StringComparer.Ordinal);
        await Parallel.ForEachAsync(keys, new ParallelOptions { MaxDegreeOfParallelism = Parallelism },
            async (key, _) => values[key] = await ReadAsync(key).ConfigureAwait(false)).ConfigureAwait(false);
        return values;
    }

    private async Task<ReadValue> ReadAsync(string key)
    {
        var backoff = FirstBackoff;
        for (var attempt = 1; ; attempt++)
        {
            var answer = await CrashHttp.SendAsync(client, workload.ReadUrl(key), body: null).ConfigureAwait(false);
            if (answer.NoAnswer is null && workload.ParseRead(answer.Status, answer.Body) is { } value) return value;
            if (attempt == Attempts) return ReadValue.Unreadable;
            await Task.Delay(backoff).ConfigureAwait(false);
            backoff *= 2;
        }
    }
}
