namespace IntegrationService.Storage;

/// <summary>What a fault may cost in acknowledged writes (an architecture's processCrash and powerLoss).</summary>
public static class Loss
{
    /// <summary>No acknowledged write.</summary>
    public const string Nothing = "nothing";

    /// <summary>About the last lossWindowMs of acknowledged writes.</summary>
    public const string Window = "window";

    /// <summary>Everything acknowledged since the last snapshot (at least lossWindowMs).</summary>
    public const string SinceSnapshot = "since-snapshot";

    /// <summary>
    /// On failover: the acknowledged writes the promoted replica had not received yet (asynchronous
    /// replication acknowledges before the replica has the write; no bound in time is stated).
    /// </summary>
    public const string Unreplicated = "unreplicated";

    /// <summary>Any acknowledged write, and the data may be corrupt.</summary>
    public const string Anything = "anything";
}
