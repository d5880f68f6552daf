namespace IntegrationService.Tests.Fixtures;

/// <summary>Fresh ids for test-owned rows, far above anything seeded, distinct across test runs.</summary>
public static class Ids
{
    private static long _next = 1_000_000_000L + Random.Shared.NextInt64(0, 1_000_000_000L) * 1000;

    public static long NewItemId() => Interlocked.Increment(ref _next);
}
