namespace Tarantool.Iproto;

public enum IprotoUnavailableReason
{
    /// <summary>The connection had already failed (or was disposed) when the request came.</summary>
    NotConnected,

    /// <summary>The connection broke, or a ping went unanswered, while the request waited.</summary>
    ConnectionLost,

    /// <summary>The request's own deadline passed without an answer; the connection stays open.</summary>
    Timeout,
}
