using IntegrationService.Kv;
using Npgsql;

namespace IntegrationService.Storage.Postgres;

/// <summary>Key-value pairs in the <c>kv</c> table (<c>bytea</c> values): each call is one statement, a PUT one upsert.</summary>
public sealed class PostgresKvStore(PostgresDatabase database) : IKvStore
{
    private const string GetSql = "select value from kv where key = $1";
    private const string PutSql = "insert into kv (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value";
    private const string DeleteSql = "delete from kv where key = $1";

    public Task<byte[]?> GetAsync(string key, CancellationToken cancellationToken) =>
        database.RunAsync(key, static async (source, key) =>
        {
            await using var command = source.CreateCommand(GetSql);
            command.Parameters.Add(new NpgsqlParameter<string> { TypedValue = key });
            await using var reader = await command.ExecuteReaderAsync();
            return await reader.ReadAsync() ? reader.GetFieldValue<byte[]>(0) : null;
        });

    public Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken) =>
        database.RunAsync((key, value), static async (source, pair) =>
        {
            await using var command = source.CreateCommand(PutSql);
            command.Parameters.Add(new NpgsqlParameter<string> { TypedValue = pair.key });
            command.Parameters.Add(new NpgsqlParameter<ReadOnlyMemory<byte>> { TypedValue = pair.value });
            return await command.ExecuteNonQueryAsync();
        });

    public Task DeleteAsync(string key, CancellationToken cancellationToken) =>
        database.RunAsync(key, static async (source, key) =>
        {
            await using var command = source.CreateCommand(DeleteSql);
            command.Parameters.Add(new NpgsqlParameter<string> { TypedValue = key });
            return await command.ExecuteNonQueryAsync();
        });
}
