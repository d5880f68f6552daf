namespace IntegrationService.Http;

/// <summary>An architecture's stated durability in <c>GET /storages</c>: the facts (the service's DurabilityFacts) and the prose.</summary>
public sealed record DurabilityDescription(string Fsync, int? FsyncIntervalMs, string ProcessCrash, string PowerLoss, int? LossWindowMs, string Text);
