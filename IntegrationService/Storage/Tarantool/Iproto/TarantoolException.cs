namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>
/// The server answered with an IPROTO error (a bad request, a constraint, a Lua error): the
/// server is reachable, so this is not a <see cref="StorageUnavailableException"/>.
/// </summary>
public sealed class TarantoolException(int errorCode, string message) : Exception($"Tarantool error {errorCode}: {message}")
{
    /// <summary>Tarantool's box error code (e.g. 3 = ER_TUPLE_FOUND).</summary>
    public int ErrorCode { get; } = errorCode;
}
