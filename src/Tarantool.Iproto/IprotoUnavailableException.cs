namespace Tarantool.Iproto;

/// <summary>No answer can come: not connected, the connection broke, or the deadline passed.</summary>
public sealed class IprotoUnavailableException(IprotoUnavailableReason reason, string message, Exception? inner = null)
    : IprotoException(message, inner)
{
    public IprotoUnavailableReason Reason { get; } = reason;
}
