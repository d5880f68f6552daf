namespace Tarantool.Iproto;

/// <summary>
/// Settings of an <see cref="IprotoClient"/>: where and as whom it connects (<paramref name="Connection"/>),
/// the deadline of every request (<paramref name="RequestTimeout"/>), the bound on one connection attempt
/// (connect, greeting, authentication and the space list: <paramref name="ConnectTimeout"/>), and the pause
/// between reconnection attempts, from <paramref name="ReconnectDelay"/> doubling up to <paramref name="MaxReconnectDelay"/>.
/// </summary>
public sealed record IprotoClientOptions(
    IprotoConnectionOptions Connection,
    TimeSpan RequestTimeout,
    TimeSpan ConnectTimeout,
    TimeSpan ReconnectDelay,
    TimeSpan MaxReconnectDelay);
