namespace IntegrationService.Http;

/// <summary>An architecture's stated durability in <c>GET /storages</c>: the facts (the service's DurabilityFacts) and the prose.</summary>
/// <param name="Fsync">When an acknowledged write is forced to disk: per-commit, periodic, kernel, snapshot or never.</param>
/// <param name="FsyncIntervalMs">For periodic and snapshot: the interval, in ms.</param>
/// <param name="ProcessCrash">What a kill -9 of the server may lose of acknowledged writes: nothing, window, since-snapshot or anything.</param>
/// <param name="PowerLoss">What a power cut of the server's host may lose, in the same words.</param>
/// <param name="LossWindowMs">The window of a <c>window</c> or <c>since-snapshot</c> promise, in ms (a power loss's; a kill -9's too unless <paramref name="ProcessCrashWindowMs"/> is set).</param>
/// <param name="Text">The same in prose.</param>
/// <param name="ProcessCrashWindowMs">A kill -9's window where it is shorter than a power loss's, in ms; null: <paramref name="LossWindowMs"/>.</param>
public sealed record DurabilityDescription(string Fsync, int? FsyncIntervalMs, string ProcessCrash, string PowerLoss, int? LossWindowMs, string Text,
    int? ProcessCrashWindowMs = null);
