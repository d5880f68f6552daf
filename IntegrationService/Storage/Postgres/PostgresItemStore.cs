using IntegrationService.Items;
using Npgsql;
using NpgsqlTypes;

namespace IntegrationService.Storage.Postgres;

/// <summary>Item links in <c>item_locations</c>, joined with <c>locations</c> on read.</summary>
public sealed class PostgresItemStore(PostgresDatabase database, ILocationCatalog catalog) : IItemStore
{
    private const string SelectSql =
        """
        select l.location_id, l.location, l.coordinates
        from item_locations il join locations l on l.location_id = il.location_id
        where il.item_id = $1 order by l.location_id
        """;

    public Task<IReadOnlyList<Location>> GetLocationsAsync(long itemId, CancellationToken cancellationToken) =>
        database.RunAsync(itemId, static async (source, itemId) =>
        {
            await using var command = source.CreateCommand(SelectSql);
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = itemId });
            return await LocationRows.ReadAllAsync(command);
        });

    public async Task ReplaceLocationsAsync(long itemId, IReadOnlyList<long> locationIds, CancellationToken cancellationToken)
    {
        try
        {
            await database.RunAsync((itemId, locationIds), static (source, write) => ReplaceAsync(source, write.itemId, write.locationIds));
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
    private static async Task<int> ReplaceAsync(NpgsqlDataSource source, long itemId, IReadOnlyList<long> locationIds)
    {
        await using var batch = source.CreateBatch();
        batch.BatchCommands.Add(Command("select pg_advisory_xact_lock($1)", itemId));
        batch.BatchCommands.Add(Command("delete from item_locations where item_id = $1", itemId));
        if (locationIds.Count > 0)
        {
            var insert = Command("insert into item_locations (item_id, location_id) select $1, unnest($2)", itemId);
            insert.Parameters.Add(new NpgsqlParameter<long[]> { TypedValue = locationIds as long[] ?? locationIds.ToArray(), NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bigint });
            batch.BatchCommands.Add(insert);
        }
        return await batch.ExecuteNonQueryAsync();
    }

    private static NpgsqlBatchCommand Command(string sql, long itemId) =>
        new(sql) { Parameters = { new NpgsqlParameter<long> { TypedValue = itemId } } };
}
