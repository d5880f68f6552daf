namespace Wire.Connections;

/// <summary>
/// The result of <see cref="ConnectionKeeper{TConnection}.ConnectAsync"/>: a connection, or why there is none,
/// the error of the last failed attempt and, when paused, how long until the next (milliseconds).
/// </summary>
public readonly record struct ConnectOutcome<TConnection>(
    TConnection? Connection, ConnectFailure Failure, Exception? Error, long RetryInMs)
    where TConnection : class;
