namespace IntegrationService.Items;

/// <summary>One item's set of location ids, as the seeder generates it.</summary>
public sealed record ItemLinks(long ItemId, long[] LocationIds);
