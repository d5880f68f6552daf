using Dapper;
using IntegrationService.Items;

namespace IntegrationService.Storage.Postgres;

/// <summary>Reads the <c>locations</c> table by id.</summary>
public sealed class PostgresLocationCatalog(PostgresDatabase database) : ILocationCatalog
{
    public Task<IReadOnlyList<Location>> GetLocationsAsync(IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        if (locationIds.Count == 0) return Task.FromResult<IReadOnlyList<Location>>([]);
        var ids = locationIds as long[] ?? locationIds.ToArray();
        return database.RunAsync(async (connection, ct) =>
        {
            var rows = await connection.QueryAsync<LocationRow>(new CommandDefinition(
                """
                select location_id as id, location as text, coordinates[0] as x, coordinates[1] as y
                from locations where location_id = any(@ids) order by location_id
                """, new { ids }, cancellationToken: ct));
            return (IReadOnlyList<Location>)rows.Select(r => r.ToLocation()).ToList();
        }, cancellationToken);
    }

    public Task<IReadOnlyList<long>> FindUnknownAsync(IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        if (locationIds.Count == 0) return Task.FromResult<IReadOnlyList<long>>([]);
        var ids = locationIds as long[] ?? locationIds.ToArray();
        return database.RunAsync(async (connection, ct) => (IReadOnlyList<long>)(await connection.QueryAsync<long>(new CommandDefinition(
            """
            select id from unnest(@ids) as id
            where not exists (select 1 from locations where location_id = id) order by id
            """, new { ids }, cancellationToken: ct))).AsList(), cancellationToken);
    }
}
