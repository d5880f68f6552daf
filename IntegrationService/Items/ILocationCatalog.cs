namespace IntegrationService.Items;

/// <summary>
/// The locations table, for architectures that keep item links elsewhere (Redis) but read
/// locations from PostgreSQL.
/// </summary>
public interface ILocationCatalog
{
    /// <summary>The locations with these ids, ordered by id; unknown ids are left out.</summary>
    Task<IReadOnlyList<Location>> GetLocationsAsync(IReadOnlyList<long> locationIds, CancellationToken cancellationToken);

    /// <summary>Those of <paramref name="locationIds"/> that name no location.</summary>
    Task<IReadOnlyList<long>> FindUnknownAsync(IReadOnlyList<long> locationIds, CancellationToken cancellationToken);
}
