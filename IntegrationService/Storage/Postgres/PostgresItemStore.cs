using Dapper;
using IntegrationService.Items;
using Npgsql;
using NpgsqlTypes;

namespace IntegrationService.Storage.Postgres;

/// <summary>Item links in <c>item_locations</c>, joined with <c>locations</c> on read.</summary>
public sealed class PostgresItemStore(PostgresDatabase database, ILocationCatalog catalog) : IItemStore
{
    public Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken) =>
        database.RunAsync(async (connection, ct) =>
        {
            var rows = await connection.QueryAsync<LocationRow>(new CommandDefinition(
                """
                select l.location_id as id, l.location as text, l.coordinates[0] as x, l.coordinates[1] as y
                from item_locations il join locations l on l.location_id = il.location_id
                where il.item_id = @itemId order by l.location_id
                """, new { itemId }, cancellationToken: ct));
            return (IReadOnlyList<Location>)rows.Select(r => r.ToLocation()).ToList();
        }, cancellationToken);

    public async Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        try
        {
            await database.RunAsync((connection, ct) => ReplaceAsync(connection, itemId, locationIds, ct), cancellationToken);
        }
        catch (PostgresException e) when (e.SqlState == PostgresErrorCodes.ForeignKeyViolation)
        {
            // Rare path: find every unknown id for the answer, not just the first one PostgreSQL named.
            throw new UnknownLocationsException(await catalog.FindUnknownAsync(locationIds, cancellationToken));
        }
    }

    /// <summary>
    /// One round trip: the statements of a batch run in one implicit transaction. The per-item
    /// advisory lock serialises writers of the same item only (other items proceed in
    /// parallel), so the delete of a later writer sees the rows of an earlier one and the last
    /// writer's set wins whole — no unique violations, no mixed sets, nothing to retry.
    /// </summary>
    private static async Task<int> ReplaceAsync(NpgsqlConnection connection, long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        await using var batch = new NpgsqlBatch(connection)
        {
            BatchCommands =
            {
                Command("select pg_advisory_xact_lock($1)", itemId),
                Command("delete from item_locations where item_id = $1", itemId),
            },
        };
        if (locationIds.Count > 0)
        {
            var insert = Command("insert into item_locations (item_id, location_id) select $1, unnest($2)", itemId);
            insert.Parameters.Add(new NpgsqlParameter<long[]> { TypedValue = locationIds as long[] ?? locationIds.ToArray(), NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bigint });
            batch.BatchCommands.Add(insert);
        }
        return await batch.ExecuteNonQueryAsync(cancellationToken);
    }

    private static NpgsqlBatchCommand Command(string sql, long itemId) =>
        new(sql) { Parameters = { new NpgsqlParameter<long> { TypedValue = itemId } } };
}
