using IntegrationService.Storage.Postgres;
using Npgsql;

namespace IntegrationService.Seeding;

/// <summary>
/// PostgreSQL's fingerprint: the rows of every table, the highest author id, and an MD5 of a
/// sample (the links of items 1–1000, every 100th location, authors 1–1000), in one read-only
/// transaction on the service's own data source. A database the service has never started on has
/// none of its tables (the service applies the schema at start-up): that reads as <c>schema=none</c>,
/// a state like any other, not an error.
/// </summary>
internal static class PostgresFingerprint
{
    private const string Query =
        """
        select (select count(*) from authors), (select coalesce(max(id), 0) from authors),
          (select count(*) from locations), (select count(*) from item_locations),
          (select count(*) from queue_messages), (select count(*) from kv),
          md5(coalesce((select string_agg(item_id || ':' || location_id, ',' order by item_id, location_id)
                          from item_locations where item_id <= 1000), '')
            || coalesce((select string_agg(location_id || ':' || location || coordinates::text, ',' order by location_id)
                          from locations where location_id % 100 = 0), '')
            || coalesce((select string_agg(a::text, ',' order by id) from authors a where id <= 1000), ''))
        """;

    /// <summary>The tables <see cref="Query"/> reads.</summary>
    internal static readonly string[] Tables = ["authors", "locations", "item_locations", "queue_messages", "kv"];

    public static async Task<ServerFingerprint> ReadAsync(string server, PostgresDatabase database, CancellationToken cancellationToken)
    {
        var builder = new NpgsqlConnectionStringBuilder(database.DataSource.ConnectionString);
        var endpoint = $"{builder.Host}:{builder.Port}";
        // A replicated topology lists its nodes: it runs when any of them answers (its primary is read).
        var running = false;
        foreach (var host in (builder.Host ?? "127.0.0.1").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            if (running = await PortProbe.IsOpenAsync(host, builder.Port, cancellationToken)) break;
        }
        if (!running) return ServerFingerprint.Down(server, endpoint);
        return await database.RunOnConnectionAsync(async (connection, ct) =>
        {
            await using var transaction = await connection.BeginTransactionAsync(ct);
            await using (var readOnly = new NpgsqlCommand("set transaction read only", connection, transaction)) await readOnly.ExecuteNonQueryAsync(ct);
            await using (var present = new NpgsqlCommand("select count(*) from unnest(@tables) t where to_regclass(t) is not null", connection, transaction))
            {
                present.Parameters.AddWithValue("tables", Tables);
                // Some of the tables but not all is not a state the service leaves: the query below fails and says which.
                if ((long)(await present.ExecuteScalarAsync(ct))! == 0) return ServerFingerprint.Of(server, endpoint, [new("schema", null)]);
            }
            await using var command = new NpgsqlCommand(Query, connection, transaction);
            await using var reader = await command.ExecuteReaderAsync(ct);
            await reader.ReadAsync(ct);
            var fingerprint = ServerFingerprint.Of(server, endpoint, [
                new("authors", reader.GetInt64(0)), new("max_author", reader.GetInt64(1)), new("locations", reader.GetInt64(2)),
                new("links", reader.GetInt64(3)), new("queue", reader.GetInt64(4)), new("kv", reader.GetInt64(5)), new("sample", reader.GetString(6))]);
            await reader.CloseAsync();
            await transaction.RollbackAsync(ct);
            return fingerprint;
        }, cancellationToken);
    }
}
