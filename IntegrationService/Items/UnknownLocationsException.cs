namespace IntegrationService.Items;

/// <summary>A write named location ids that do not exist; nothing was written.</summary>
public sealed class UnknownLocationsException(IReadOnlyList<long> locationIds)
    : Exception($"Unknown location ids: {string.Join(", ", locationIds)}")
{
    public IReadOnlyList<long> LocationIds { get; } = locationIds;
}
