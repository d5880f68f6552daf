namespace Wire.Connections;

/// <summary>Why <see cref="ConnectionKeeper{TConnection}.ConnectAsync"/> has no connection to give.</summary>
public enum ConnectFailure
{
    /// <summary>It has one: <see cref="ConnectOutcome{TConnection}.Connection"/>.</summary>
    None,

    /// <summary>The last attempt failed and the pause after it has not ended: no attempt was made.</summary>
    Paused,

    /// <summary>An attempt is still running at the caller's deadline.</summary>
    TimedOut,

    /// <summary>The attempt the caller waited for failed.</summary>
    Failed,
}
