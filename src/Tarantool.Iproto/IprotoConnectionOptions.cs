namespace Tarantool.Iproto;

/// <summary>
/// Where and as whom an <see cref="IprotoConnection"/> connects, and how it checks an idle peer:
/// after <paramref name="PingInterval"/> with nothing received it sends IPROTO_PING, and no answer
/// within <paramref name="PingTimeout"/> fails the connection.
/// </summary>
public sealed record IprotoConnectionOptions(
    string Host, int Port, string User, string Password, TimeSpan PingInterval, TimeSpan PingTimeout);
