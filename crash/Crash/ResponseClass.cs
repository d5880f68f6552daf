using Tank.Runner;

namespace Crash;

/// <summary>How one write's HTTP exchange ended, as the result counts it.</summary>
public enum ResponseClass
{
    /// <summary>2xx with the answer the write expects (201 and an id for a save).</summary>
    Ack,
    /// <summary>503.</summary>
    Unavailable,
    /// <summary>Any other status, or a 2xx without the expected answer.</summary>
    OtherStatus,
    Timeout,
    Connection,
}

/// <summary>Maps a write's answer to its class and to what the verifier may assume about it.</summary>
public static class ResponseClasses
{
    public static ResponseClass Of(int status, bool acknowledged) =>
        acknowledged ? ResponseClass.Ack : status == 503 ? ResponseClass.Unavailable : ResponseClass.OtherStatus;

    /// <summary>
    /// Only a 4xx is a sure refusal. A 5xx (503 included) is in doubt like a timeout: the service
    /// answers 503 when it loses its backend, and a connection lost during a commit leaves the
    /// commit in doubt. A 2xx without the expected answer may have been applied as well.
    /// </summary>
    public static WriteOutcome Outcome(ResponseClass responseClass, int status) => responseClass switch
    {
        ResponseClass.Ack => WriteOutcome.Acked,
        ResponseClass.Timeout or ResponseClass.Connection => WriteOutcome.InDoubt,
        _ => status is >= 400 and < 500 ? WriteOutcome.Failed : WriteOutcome.InDoubt,
    };
}
