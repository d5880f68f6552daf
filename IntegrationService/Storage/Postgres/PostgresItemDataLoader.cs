using IntegrationService.Items;
using Npgsql;
using NpgsqlTypes;

namespace IntegrationService.Storage.Postgres;

/// <summary>
/// Loads the data set with binary COPY, replacing whatever the tables held, in one transaction
/// (serves both postgres and postgres-redis-cache, and the locations of postgres-redis-persistent).
/// </summary>
public sealed class PostgresItemDataLoader(PostgresDatabase database) : IItemDataLoader
{
    // A bulk load is not a request: it gets minutes, not the 5 s request timeout.
    private static readonly TimeSpan LoadTimeout = TimeSpan.FromMinutes(10);

    public string Name => "postgres";

    public Task LoadAsync(ItemDataSet dataSet, CancellationToken cancellationToken) =>
        database.RunOnConnectionAsync(async (connection, ct) =>
        {
            await using var transaction = await connection.BeginTransactionAsync(ct);
            await using (var truncate = new NpgsqlCommand("truncate item_locations, locations", connection, transaction) { CommandTimeout = (int)LoadTimeout.TotalSeconds })
            {
                await truncate.ExecuteNonQueryAsync(ct);
            }
            await using (var writer = await connection.BeginBinaryImportAsync(
                "copy locations (location_id, location, coordinates) from stdin (format binary)", ct))
            {
                writer.Timeout = LoadTimeout;
                foreach (var location in dataSet.Locations)
                {
                    await writer.StartRowAsync(ct);
                    await writer.WriteAsync(location.Id, NpgsqlDbType.Bigint, ct);
                    await writer.WriteAsync(location.Text, NpgsqlDbType.Text, ct);
                    await writer.WriteAsync(new NpgsqlPoint(location.Coordinates.X, location.Coordinates.Y), NpgsqlDbType.Point, ct);
                }
                await writer.CompleteAsync(ct);
            }
            await using (var writer = await connection.BeginBinaryImportAsync(
                "copy item_locations (item_id, location_id) from stdin (format binary)", ct))
            {
                writer.Timeout = LoadTimeout;
                foreach (var item in dataSet.Items)
                {
                    foreach (var locationId in item.LocationIds)
                    {
                        await writer.StartRowAsync(ct);
                        await writer.WriteAsync(item.ItemId, NpgsqlDbType.Bigint, ct);
                        await writer.WriteAsync(locationId, NpgsqlDbType.Bigint, ct);
                    }
                }
                await writer.CompleteAsync(ct);
            }
            await transaction.CommitAsync(ct);
            await using var analyze = new NpgsqlCommand("analyze locations; analyze item_locations", connection) { CommandTimeout = (int)LoadTimeout.TotalSeconds };
            return await analyze.ExecuteNonQueryAsync(ct);
        }, cancellationToken);
}
