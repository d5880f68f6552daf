namespace IntegrationService.Storage;

/// <summary>
/// What an architecture promises about acknowledged writes, as data a tool can check against a
/// measurement (the crash test compares its ledger with <see cref="ProcessCrash"/> and
/// <see cref="PowerLoss"/>). The words are the values of <see cref="FsyncPolicy"/> and <see cref="Loss"/>.
/// </summary>
/// <param name="Fsync">When an acknowledged write is forced to disk (<see cref="FsyncPolicy"/>).</param>
/// <param name="FsyncIntervalMs">For <see cref="FsyncPolicy.Periodic"/> and <see cref="FsyncPolicy.Snapshot"/>: the interval, in milliseconds.</param>
/// <param name="ProcessCrash">What a kill -9 of the server may lose of acknowledged writes (<see cref="Loss"/>).</param>
/// <param name="PowerLoss">What a power cut of the server's host may lose of acknowledged writes (<see cref="Loss"/>).</param>
/// <param name="LossWindowMs">For <see cref="Loss.Window"/> and <see cref="Loss.SinceSnapshot"/>: about how much time of acknowledged writes, in milliseconds.</param>
/// <param name="ProcessCrashWindowMs">
/// Where a kill -9 may lose a shorter window than a power loss (the server writes to its files shortly after
/// the answer, and fsyncs them much later): that window, in milliseconds. Null: <paramref name="LossWindowMs"/>
/// for both faults.
/// </param>
public sealed record DurabilityFacts(string Fsync, int? FsyncIntervalMs, string ProcessCrash, string PowerLoss, int? LossWindowMs, int? ProcessCrashWindowMs = null)
{
    /// <summary>Nothing acknowledged is lost by either fault.</summary>
    public static DurabilityFacts Synchronous { get; } = new(FsyncPolicy.PerCommit, null, Loss.Nothing, Loss.Nothing, null);
}
