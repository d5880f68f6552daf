namespace Crash.Queue;

/// <summary>How one <c>/read/{queue}</c> ended.</summary>
public enum ReadOutcome
{
    /// <summary>200 with one of this run's messages.</summary>
    Own,
    /// <summary>200 with any other message (another run's, a test's).</summary>
    Foreign,
    /// <summary>204: the queue is empty.</summary>
    Empty,
    /// <summary>Timeout, connection error or 5xx: the read may have taken a message off the queue.</summary>
    InDoubt,
    /// <summary>4xx: refused, nothing taken.</summary>
    Refused,
}
