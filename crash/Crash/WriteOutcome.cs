namespace Crash;

/// <summary>What the loader knows about whether a write was applied.</summary>
public enum WriteOutcome
{
    /// <summary>The API acknowledged it: it must survive.</summary>
    Acked,
    /// <summary>The API refused it (4xx): it was not applied.</summary>
    Failed,
    /// <summary>Timeout, connection error or 5xx: the server may or may not have applied it.</summary>
    InDoubt,
}
