using IntegrationService.Items;
using Npgsql;
using NpgsqlTypes;

namespace IntegrationService.Storage.Postgres;

/// <summary>Reads the <c>locations</c> table by id.</summary>
public sealed class PostgresLocationCatalog(PostgresDatabase database) : ILocationCatalog
{
    private const string SelectSql =
        "select location_id, location, coordinates from locations where location_id = any($1) order by location_id";

    private const string UnknownSql =
        "select id from unnest($1) as id where not exists (select 1 from locations where location_id = id) order by id";

    public Task<IReadOnlyList<Location>> GetLocationsAsync(IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        if (locationIds.Count == 0) return Task.FromResult<IReadOnlyList<Location>>([]);
        return database.RunAsync(Ids(locationIds), static async (source, ids) =>
        {
            await using var command = source.CreateCommand(SelectSql);
            command.Parameters.Add(ids);
            return await LocationRows.ReadAllAsync(command);
        });
    }

    public Task<IReadOnlyList<long>> FindUnknownAsync(IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        if (locationIds.Count == 0) return Task.FromResult<IReadOnlyList<long>>([]);
        return database.RunAsync(Ids(locationIds), static async (source, ids) =>
        {
            await using var command = source.CreateCommand(UnknownSql);
            command.Parameters.Add(ids);
            await using var reader = await command.ExecuteReaderAsync();
            var unknown = new List<long>();
            while (await reader.ReadAsync()) unknown.Add(reader.GetInt64(0));
            return (IReadOnlyList<long>)unknown;
        });
    }

    private static NpgsqlParameter<long[]> Ids(IReadOnlyList<long> ids) =>
        new() { TypedValue = ids as long[] ?? ids.ToArray(), NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bigint };
}
