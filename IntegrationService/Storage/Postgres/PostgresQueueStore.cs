using IntegrationService.Queues;
using Microsoft.Extensions.Options;
using Npgsql;
using NpgsqlTypes;

namespace IntegrationService.Storage.Postgres;

/// <summary>
/// A table queue in <c>queue_messages</c>: a write is one insert; a read deletes the oldest row that
/// no other read has locked and returns it, in one statement (one round trip, its own transaction),
/// and the delete commits before the answer, so a message is taken once.
/// <para>
/// Reads that arrive together share that statement (<see cref="QueueTakeBatcher{T}"/>): it deletes
/// as many rows as there are reads waiting, up to <see cref="MaxBatch"/>, and each read gets one, the
/// oldest to the read that came first. One read per statement made 64 readers each scan the head,
/// step over each other's locked rows and commit one by one (reads at the SLO were a third of writes
/// in the bench, issue 24); now only <see cref="PostgresOptions.QueueTakesInFlight"/> takes contend,
/// and most scan from just past the last id taken (<see cref="QueueTakeCursor"/>), not over the dead
/// index entries the deletes leave at the head.
/// </para>
/// </summary>
public sealed class PostgresQueueStore : IQueueStore, IQueueBulkFiller
{
    /// <summary>Most reads one take serves.</summary>
    public const int MaxBatch = 64;

    private const string InsertSql = "insert into queue_messages (body) values ($1) returning id";

    // = any(array(...)) keeps the outer delete on the primary key (an "in (subquery)" may be planned
    // as a join over the whole table).
    private const string TakeSql =
        """
        delete from queue_messages
        where id = any(array(select id from queue_messages where id >= $2 order by id for update skip locked limit $1))
        returning id, body
        """;

    private readonly QueueTakeCursor _cursor = new();

    private readonly PostgresDatabase _database;
    private readonly QueueTakeBatcher<QueueMessage> _takes;

    public PostgresQueueStore(PostgresDatabase database, IOptions<PostgresOptions> options)
    {
        _database = database;
        _takes = new QueueTakeBatcher<QueueMessage>(TakeAsync, options.Value.QueueTakesInFlight, MaxBatch);
    }

    public Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken) =>
        _database.RunAsync(message, static async (source, message) =>
        {
            await using var command = source.CreateCommand(InsertSql);
            command.Parameters.Add(new NpgsqlParameter<ReadOnlyMemory<byte>> { TypedValue = message });
            return (long)(await command.ExecuteScalarAsync())!;
        });

    public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken) => _takes.TakeOneAsync();

    /// <summary>
    /// Deletes up to <paramref name="count"/> of the oldest unlocked messages from the cursor's id on
    /// (<see cref="QueueTakeCursor"/>) and returns them oldest first. A take that finds none past the
    /// cursor looks from the head before it answers "empty"; one that finds some, but too few, takes
    /// the rest from the floor.
    /// </summary>
    private async Task<IReadOnlyList<QueueMessage>> TakeAsync(int count)
    {
        var from = _cursor.Next();
        var taken = await TakeFromAsync(count, from);
        if (taken.Count == 0 && from != QueueTakeCursor.Head)
        {
            taken = await TakeFromAsync(count, QueueTakeCursor.Head);
        }
        else if (taken.Count < count && _cursor.Floor is var floor && floor < from)
        {
            // The queue past the cursor ran out: what committed behind it lately is served now.
            taken.AddRange(await TakeFromAsync(count - taken.Count, floor));
        }
        if (taken.Count == 0) return taken;
        taken.Sort(static (a, b) => a.Id.CompareTo(b.Id));
        _cursor.Taken(taken[^1].Id);
        return taken;
    }

    private Task<List<QueueMessage>> TakeFromAsync(int count, long from) =>
        _database.RunAsync((count, from), static async (source, take) =>
        {
            await using var command = source.CreateCommand(TakeSql);
            command.Parameters.Add(new NpgsqlParameter<int> { TypedValue = take.count });
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = take.from });
            await using var reader = await command.ExecuteReaderAsync();
            var taken = new List<QueueMessage>(take.count);
            while (await reader.ReadAsync()) taken.Add(new QueueMessage(reader.GetInt64(0), reader.GetFieldValue<byte[]>(1)));
            return taken;
        });

    public IQueueBulkFiller BulkFiller => this;

    /// <summary>One binary COPY (an insert per message commits and flushes the WAL once per message).</summary>
    public Task FillAsync(IReadOnlyList<byte[]> messages, CancellationToken cancellationToken) =>
        _database.RunOnConnectionAsync(async (connection, ct) =>
        {
            await using var writer = await connection.BeginBinaryImportAsync("copy queue_messages (body) from stdin (format binary)", ct);
            foreach (var message in messages)
            {
                await writer.StartRowAsync(ct);
                await writer.WriteAsync(message, NpgsqlDbType.Bytea, ct);
            }
            return await writer.CompleteAsync(ct);
        }, cancellationToken);

    /// <summary>
    /// TRUNCATE of queue_messages, which holds this queue only (the other entities have tables of
    /// their own): new empty files at once, where a DELETE would leave every row dead for VACUUM and
    /// its index entries in the way of the next reads' scans. The table is locked first, so the count
    /// is of exactly what the truncate removes; the identity goes on, so ids keep growing.
    /// </summary>
    public Task<long> PurgeAsync(CancellationToken cancellationToken) =>
        _database.RunOnConnectionAsync(async (connection, ct) =>
        {
            await using var transaction = await connection.BeginTransactionAsync(ct);
            await using (var command = new NpgsqlCommand("lock table queue_messages in access exclusive mode", connection, transaction))
                await command.ExecuteNonQueryAsync(ct);
            long removed;
            await using (var command = new NpgsqlCommand("select count(*) from queue_messages", connection, transaction))
                removed = (long)(await command.ExecuteScalarAsync(ct))!;
            await using (var command = new NpgsqlCommand("truncate queue_messages continue identity", connection, transaction))
                await command.ExecuteNonQueryAsync(ct);
            await transaction.CommitAsync(ct);
            return removed;
        }, cancellationToken);

    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        _database.RunAsync(0, static async (source, _) =>
        {
            await using var command = source.CreateCommand("select count(*) from queue_messages");
            return (long)(await command.ExecuteScalarAsync())!;
        });
}
