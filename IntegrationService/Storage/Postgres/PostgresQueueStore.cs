using IntegrationService.Queues;
using Npgsql;

namespace IntegrationService.Storage.Postgres;

/// <summary>
/// A table queue in <c>queue_messages</c>: a write is one insert; a read deletes the oldest row
/// that no other reader has locked and returns it, in one statement (one round trip, its own
/// transaction). <c>FOR UPDATE SKIP LOCKED</c> lets concurrent readers take different rows instead
/// of queueing on the same one, and the delete commits before the answer, so a message is taken once.
/// </summary>
public sealed class PostgresQueueStore(PostgresDatabase database) : IQueueStore
{
    private const string InsertSql = "insert into queue_messages (body) values ($1) returning id";

    private const string TakeSql =
        """
        delete from queue_messages
        where id = (select id from queue_messages order by id for update skip locked limit 1)
        returning id, body
        """;

    public Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken) =>
        database.RunAsync(message, static async (source, message) =>
        {
            await using var command = source.CreateCommand(InsertSql);
            command.Parameters.Add(new NpgsqlParameter<ReadOnlyMemory<byte>> { TypedValue = message });
            return (long)(await command.ExecuteScalarAsync())!;
        });

    public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) =>
        database.RunAsync(0, static async (source, _) =>
        {
            await using var command = source.CreateCommand(TakeSql);
            await using var reader = await command.ExecuteReaderAsync();
            if (!await reader.ReadAsync()) return null;
            return new QueueMessage(reader.GetInt64(0), reader.GetFieldValue<byte[]>(1));
        });

    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        database.RunAsync(0, static async (source, _) =>
        {
            await using var command = source.CreateCommand("select count(*) from queue_messages");
            return (long)(await command.ExecuteScalarAsync())!;
        });
}
