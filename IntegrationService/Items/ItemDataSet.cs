namespace IntegrationService.Items;

/// <summary>The generated data set: locations with ids 1..N and items with ids 1..M.</summary>
public sealed record ItemDataSet(IReadOnlyList<Location> Locations, IReadOnlyList<ItemLinks> Items);
