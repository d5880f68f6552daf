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
/// <para>
/// The leased read moves the oldest unlocked message into <c>queue_leases</c> with a random token
/// and the lease's end (server time), in one statement; its receipt is <c>id.token</c>. An ack
/// deletes the lease row while it has not ended; a nack moves it back at once, and a lease that
/// ended is moved back by the next leased read (in the same transaction, before it takes) and by
/// a reaper every <see cref="ReapEvery"/> once this process has read the queue. A message moved
/// back keeps its id, so it is the oldest again. Everything is a committed row: a lease survives
/// the service's restart and PostgreSQL's (and ends on the database's clock).
/// </para>
/// </summary>
public sealed class PostgresQueueStore : IQueueStore, IQueueBulkFiller, IAsyncDisposable
{
    /// <summary>How often a lease that ended is given back when no leased read comes to do it.</summary>
    public static readonly TimeSpan ReapEvery = TimeSpan.FromSeconds(1);

    // Moves every lease that ended back into the queue, under its own id.
    private const string ReapSql =
        """
        with ended as (delete from queue_leases where leased_until <= now() returning id, body)
        insert into queue_messages (id, body) overriding system value select id, body from ended
        """;

    private const string LeaseSql =
        """
        with taken as (
            delete from queue_messages
            where id = (select id from queue_messages order by id for update skip locked limit 1)
            returning id, body)
        insert into queue_leases (id, body, token, leased_until)
        select id, body, $1, now() + $2 from taken
        returning id, body
        """;

    private const string AckSql = "delete from queue_leases where id = $1 and token = $2 and leased_until > now()";

    private const string NackSql =
        """
        with back as (delete from queue_leases where id = $1 and token = $2 and leased_until > now() returning id, body)
        insert into queue_messages (id, body) overriding system value select id, body from back
        """;
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

    private readonly LeaseReaper _reaper;

    public PostgresQueueStore(PostgresDatabase database, IOptions<PostgresOptions> options)
    {
        _database = database;
        _takes = new QueueTakeBatcher<QueueMessage>(TakeAsync, options.Value.QueueTakesInFlight, MaxBatch);
        _reaper = new LeaseReaper(_ => ReapAsync(), ReapEvery);
    }

    public Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken) =>
        _database.RunAsync(message, static async (source, message) =>
        {
            await using var command = source.CreateCommand(InsertSql);
            command.Parameters.Add(new NpgsqlParameter<ReadOnlyMemory<byte>> { TypedValue = message });
            return (long)(await command.ExecuteScalarAsync())!;
        });

    public Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken)
    {
        _reaper.Start();
        return _takes.TakeOneAsync();
    }

    public Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken)
    {
        _reaper.Start();
        return _database.RunAsync((Token: QueueLease.NewIdToken(), lease), static async (source, call) =>
        {
            await using var batch = source.CreateBatch();
            batch.BatchCommands.Add(new NpgsqlBatchCommand(ReapSql));
            batch.BatchCommands.Add(new NpgsqlBatchCommand(LeaseSql)
            {
                Parameters = { new NpgsqlParameter<long> { TypedValue = call.Token.Token }, new NpgsqlParameter<TimeSpan> { TypedValue = call.lease } },
            });
            await using var reader = await batch.ExecuteReaderAsync();
            if (!await reader.ReadAsync()) return null;
            return new LeasedMessage(reader.GetInt64(0), reader.GetFieldValue<byte[]>(1), call.Token.Receipt(reader.GetInt64(0)));
        });
    }

    public Task<bool> AckAsync(string receipt, CancellationToken cancellationToken) => EndLeaseAsync(AckSql, receipt);

    public Task<bool> NackAsync(string receipt, CancellationToken cancellationToken) => EndLeaseAsync(NackSql, receipt);

    private Task<bool> EndLeaseAsync(string sql, string receipt)
    {
        if (!QueueLease.TryParseIdToken(receipt, out var id, out var token)) return Task.FromResult(false);
        return _database.RunAsync((sql, id, token), static async (source, call) =>
        {
            await using var command = source.CreateCommand(call.sql);
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = call.id });
            command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = call.token });
            return await command.ExecuteNonQueryAsync() == 1;
        });
    }

    private Task<int> ReapAsync() =>
        _database.RunAsync(0, static async (source, _) =>
        {
            await using var command = source.CreateCommand(ReapSql);
            return await command.ExecuteNonQueryAsync();
        });

    public ValueTask DisposeAsync() => _reaper.DisposeAsync();

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
