namespace IntegrationService.Seeding;

/// <summary>What <c>IntegrationService fill-queue</c> does: top <see cref="Queue"/> up to <see cref="Depth"/> messages with <see cref="Concurrency"/> writers.</summary>
public sealed record FillQueueOptions(string Queue, long Depth, int Concurrency);
