namespace IntegrationService.Seeding;

/// <summary>What <c>IntegrationService seed</c> loads: the generated data set's seed and size, and into which backends (null: all).</summary>
public sealed record SeedOptions(ulong Seed, int Locations, int Items, IReadOnlyList<string>? Only);
