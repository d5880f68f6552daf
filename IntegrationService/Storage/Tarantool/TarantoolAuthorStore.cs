using IntegrationService.Authors;
using IntegrationService.Storage.Tarantool.Iproto;

namespace IntegrationService.Storage.Tarantool;

/// <summary>Authors in the authors_{engine} space; every call is one IPROTO request.</summary>
public sealed class TarantoolAuthorStore(TarantoolConnection connection, string engine) : IAuthorStore
{
    private readonly string _space = "authors_" + engine;

    public async Task<Author> CreateAsync(Author author, CancellationToken cancellationToken)
    {
        var spaceId = await connection.GetSpaceIdAsync(_space, cancellationToken);
        using var response = await connection.SendAsync(IprotoCode.Insert, (spaceId, AuthorTuple.FromAuthor(author, id: null)),
            WriteTuple, cancellationToken);
        return ReadOne(response) ?? throw new InvalidOperationException("Tarantool returned no tuple for an insert.");
    }

    public async Task<Author?> GetAsync(long id, CancellationToken cancellationToken)
    {
        var spaceId = await connection.GetSpaceIdAsync(_space, cancellationToken);
        using var response = await connection.SendAsync(IprotoCode.Select, (spaceId, id), IprotoBody.WriteSelectById, cancellationToken);
        return ReadOne(response);
    }

    public async Task<IReadOnlyList<Author>> GetPageAsync(int offset, int limit, CancellationToken cancellationToken)
    {
        var spaceId = await connection.GetSpaceIdAsync(_space, cancellationToken);
        using var response = await connection.SendAsync(IprotoCode.Select, (spaceId, offset, limit), IprotoBody.WriteSelectPage,
            cancellationToken);
        return ReadAll(response);
    }

    /// <summary>An UPDATE setting every field but the id: atomic, and absent ids come back empty.</summary>
    public async Task<Author?> UpdateAsync(Author author, CancellationToken cancellationToken)
    {
        var spaceId = await connection.GetSpaceIdAsync(_space, cancellationToken);
        using var response = await connection.SendAsync(IprotoCode.Update, (spaceId, AuthorTuple.FromAuthor(author, author.Id)),
            WriteUpdate, cancellationToken);
        return ReadOne(response);
    }

    /// <summary>Through init.lua's delete_existing: vinyl's DELETE does not say whether the tuple existed.</summary>
    public async Task<bool> DeleteAsync(long id, CancellationToken cancellationToken)
    {
        using var response = await connection.SendAsync(IprotoCode.Call, (_space, id), WriteDeleteExisting, cancellationToken);
        var reader = response.ReadData();
        return reader.ReadArrayHeader() > 0 && reader.ReadBoolean();
    }

    internal static void WriteTuple(ref MsgPackWriter writer, (uint SpaceId, AuthorTuple Tuple) request)
    {
        IprotoBody.WriteTupleHeader(ref writer, request.SpaceId);
        MsgPackArrayMapper<AuthorTuple>.Write(ref writer, request.Tuple);
    }

    private static void WriteDeleteExisting(ref MsgPackWriter writer, (string Space, long Id) call)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, "delete_existing");
        writer.WriteArrayHeader(2);
        writer.WriteString(call.Space);
        writer.WriteInt64(call.Id);
    }

    private static void WriteUpdate(ref MsgPackWriter writer, (uint SpaceId, AuthorTuple Tuple) request)
    {
        IprotoBody.WriteKeyHeader(ref writer, request.SpaceId, request.Tuple.Id ?? 0, extraEntries: 1);
        writer.WriteUInt64(IprotoKey.Tuple);
        // IPROTO update operations number fields from 0; field 0 (the id) stays.
        var count = MsgPackArrayMapper<AuthorTuple>.ElementCount;
        writer.WriteArrayHeader(count - 1);
        for (var field = 1; field < count; field++)
        {
            writer.WriteArrayHeader(3);
            writer.WriteString("=");
            writer.WriteUInt64((ulong)field);
            MsgPackArrayMapper<AuthorTuple>.WriteElement(ref writer, request.Tuple, field);
        }
    }

    internal static Author? ReadOne(IprotoResponse response)
    {
        var reader = response.ReadData();
        return reader.ReadArrayHeader() == 0 ? null : MsgPackArrayMapper<AuthorTuple>.Read(ref reader).ToAuthor();
    }

    private static List<Author> ReadAll(IprotoResponse response)
    {
        var reader = response.ReadData();
        var count = reader.ReadArrayHeader();
        var authors = new List<Author>(count);
        for (var i = 0; i < count; i++) authors.Add(MsgPackArrayMapper<AuthorTuple>.Read(ref reader).ToAuthor());
        return authors;
    }
}
