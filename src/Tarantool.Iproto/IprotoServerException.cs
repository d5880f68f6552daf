namespace Tarantool.Iproto;

/// <summary>
/// The server answered with an IPROTO error (a bad request, a constraint, a Lua error): the
/// server is reachable, so this is not an <see cref="IprotoUnavailableException"/>.
/// </summary>
public sealed class IprotoServerException(int errorCode, string message)
    : IprotoException($"Tarantool error {errorCode}: {message}")
{
    /// <summary>Tarantool's box error code (e.g. 3 = ER_TUPLE_FOUND).</summary>
    public int ErrorCode { get; } = errorCode;
}
