namespace Crash;

/// <summary>
/// One write the loader sent: what and where, then (set once, when it ends) how it ended. Written
/// by the request that owns it and read only after every request has finished.
/// </summary>
internal sealed class WriteRecord(long seq, string? key, bool creates, string value, string url, byte[] body)
{
    public long Seq { get; } = seq;
    /// <summary>The key written; a create learns it from its acknowledgement (null until then, and forever if not acknowledged).</summary>
    public string? Key { get; set; } = key;
    /// <summary>A create (an author save), whose key the server assigns.</summary>
    public bool Creates { get; } = creates;
    /// <summary>The canonical value the write carries.</summary>
    public string Value { get; } = value;
    /// <summary>Where the write goes; null once it has ended (<see cref="Release"/>).</summary>
    public string? Url { get; private set; } = url;
    /// <summary>What it sends; empty once it has ended (<see cref="Release"/>).</summary>
    public byte[] Body { get; private set; } = body;
    /// <summary>POST, or PUT for a key-value write.</summary>
    public HttpMethod Method { get; init; } = HttpMethod.Post;

    /// <summary>When the schedule meant the write to go; its latency is measured from here, so a late sender does not hide the wait.</summary>
    public double DueS { get; set; }
    public double SentS { get; set; }
    public double CompletedS { get; set; }
    /// <summary>The HTTP status, 0 when there was none (timeout, connection error).</summary>
    public int Status { get; set; }
    public ResponseClass Class { get; set; }
    public WriteOutcome Outcome { get; set; }

    /// <summary>
    /// Lets go of the request's bytes once it has ended: a run keeps every record (hundreds of
    /// thousands at a loaded rate), and with the tester's small gen0 (script/crashtest) every byte a
    /// record keeps is copied by its frequent collections, which stop its clock: keeping the bytes
    /// (and every request's task) about doubled the p99 the tester measured before a fault.
    /// </summary>
    public void Release()
    {
        Url = null;
        Body = [];
    }
}
