using System.Buffers;
using IntegrationService.Queues;
using Tarantool.Iproto;
using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>
/// A FIFO space per engine (queue_memtx, queue_vinyl), written and taken by init.lua's stored
/// functions queue_put and queue_take: one round trip each, and a take is atomic (see init.lua;
/// vinyl's takes find the oldest id in a memtx index of the waiting ids, not in the LSM tree).
/// <para>
/// The leased read is init.lua's queue_lease, queue_ack and queue_nack: a leased message moves, in
/// one transaction, into the engine's lease space with a random token and the lease's end on
/// Tarantool's clock; its receipt is <c>id.token</c>. An ack deletes it while the lease has not
/// ended; a nack, or the server's own reaper fiber (every 0.2 s) once the lease ended, moves it
/// back under its id. Leases are written to the WAL like the queue: they survive a restart.
/// </para>
/// </summary>
public sealed class TarantoolQueueStore(TarantoolConnection connection, string engine) : IQueueStore
{
    /// <summary>
    /// The depth and the purge are for benchmarks and operators, not a hot path, so they get this long: a count may
    /// scan (vinyl's once scanned its tombstones, seconds for a million messages; init.lua now counts
    /// the waiting ids in memtx).
    /// </summary>
    private static readonly TimeSpan CountTimeout = TimeSpan.FromSeconds(60);

    public async Task<long> EnqueueAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Call, (engine, message), WritePut, cancellationToken);
        var reader = response.ReadData();
        reader.ReadArrayHeader();
        return reader.ReadInt64();
    }

    public async Task<QueueMessage?> DequeueAsync(CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Call, engine, WriteTake, cancellationToken);
        return ReadTaken(response);
    }

    public async Task<LeasedMessage?> LeaseAsync(TimeSpan lease, CancellationToken cancellationToken)
    {
        var (token, receipt) = QueueLease.NewIdToken();
        using var response = await connection.SendAsync(IprotoCode.Call, (engine, token, lease.TotalSeconds), WriteLease, cancellationToken);
        return ReadTaken(response) is { } message ? new LeasedMessage(message.Id, message.Body, receipt(message.Id)) : null;
    }

    public Task<bool> AckAsync(string receipt, CancellationToken cancellationToken) => EndLeaseAsync("queue_ack", receipt, cancellationToken);

    public Task<bool> NackAsync(string receipt, CancellationToken cancellationToken) => EndLeaseAsync("queue_nack", receipt, cancellationToken);

    private async Task<bool> EndLeaseAsync(string function, string receipt, CancellationToken cancellationToken)
    {
        if (!QueueLease.TryParseIdToken(receipt, out var id, out var token)) return false;
        using var response = await connection.SendAsync(IprotoCode.Call, (function, engine, id, token), WriteEndLease, cancellationToken);
        var reader = response.ReadData();
        return reader.ReadArrayHeader() > 0 && reader.ReadBoolean();
    }

    private static void WriteLease(ref MessagePackWriter writer, (string Engine, long Token, double Seconds) call)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, "queue_lease");
        writer.WriteArrayHeader(3);
        writer.Write(call.Engine);
        writer.Write(call.Token);
        writer.Write(call.Seconds);
    }

    private static void WriteEndLease(ref MessagePackWriter writer, (string Function, string Engine, long Id, long Token) call)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, call.Function);
        writer.WriteArrayHeader(3);
        writer.Write(call.Engine);
        writer.Write(call.Id);
        writer.Write(call.Token);
    }

    public async Task<long> CountAsync(CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Call, engine, WriteDepth, CountTimeout, cancellationToken);
        var reader = response.ReadData();
        reader.ReadArrayHeader();
        return reader.ReadInt64();
    }

    /// <summary>init.lua's queue_purge: a truncate of this engine's queue space (and of vinyl's waiting ids), no other space.</summary>
    public async Task<long> PurgeAsync(CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Call, engine, WritePurge, CountTimeout, cancellationToken);
        var reader = response.ReadData();
        reader.ReadArrayHeader();
        return reader.ReadInt64();
    }

    /// <summary>queue_take's answer: nothing or nil (empty queue), or the tuple {id, body}.</summary>
    internal static QueueMessage? ReadTaken(IprotoResponse response)
    {
        var reader = response.ReadData();
        if (reader.ReadArrayHeader() == 0 || reader.TryReadNil()) return null;
        var fields = reader.ReadArrayHeader();
        var id = reader.ReadInt64();
        var body = reader.ReadStringSequence() is { } utf8 ? utf8.ToArray() : [];
        for (var f = 2; f < fields; f++) reader.Skip();
        return new QueueMessage(id, body);
    }

    /// <summary>queue_put(engine, body): the message body goes as a str of its UTF-8 bytes, unconverted.</summary>
    internal static void WritePut(ref MessagePackWriter writer, (string Engine, ReadOnlyMemory<byte> Message) call)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, "queue_put");
        writer.WriteArrayHeader(2);
        writer.Write(call.Engine);
        writer.WriteString(call.Message.Span);
    }

    private static void WriteTake(ref MessagePackWriter writer, string engine) => WriteEngineCall(ref writer, "queue_take", engine);

    private static void WriteDepth(ref MessagePackWriter writer, string engine) => WriteEngineCall(ref writer, "queue_depth", engine);

    private static void WritePurge(ref MessagePackWriter writer, string engine) => WriteEngineCall(ref writer, "queue_purge", engine);

    private static void WriteEngineCall(ref MessagePackWriter writer, string function, string engine)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, function);
        writer.WriteArrayHeader(1);
        writer.Write(engine);
    }
}
