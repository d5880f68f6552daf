namespace IntegrationService.Seeding;

/// <summary>What <c>IntegrationService purge-queue</c> does: empty <see cref="Queue"/>.</summary>
public sealed record PurgeQueueOptions(string Queue);
