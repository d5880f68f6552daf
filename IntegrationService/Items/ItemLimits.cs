namespace IntegrationService.Items;

public static class ItemLimits
{
    /// <summary>Upper bound on one item's set, so one request cannot ask for unbounded work.</summary>
    public const int MaxLocationsPerItem = 1000;
}
