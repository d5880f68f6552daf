namespace Crash;

/// <summary>The writes and reads of one <c>--kind</c>: what to send, what acknowledges it, how to read a key back.</summary>
internal interface ICrashWorkload
{
    /// <summary>The next write (called on the timer thread only), or null when no key is free to write.</summary>
    WriteRecord? Next(long seq);

    /// <summary>Whether a 2xx answer acknowledges the write; a create takes its key from it.</summary>
    bool Acknowledges(WriteRecord write, int status, byte[] body);

    /// <summary>Called once per write when it has ended and its outcome is set.</summary>
    void Completed(WriteRecord write);

    string ReadUrl(string key);

    /// <summary>The value an answer to a read carries, or null when the read should be retried.</summary>
    ReadValue? ParseRead(int status, byte[] body);

    /// <summary>A read that shows the API answers, given the first acknowledged key (null if none).</summary>
    string ProbeUrl(string? firstAckedKey);

    /// <summary>Keys whose pre-run value the verifier needs (an item's earlier set); empty for authors.</summary>
    IReadOnlyList<string> KeysToReadBefore(long plannedWrites);
}
