using IntegrationService.Authors;
using Tarantool.Iproto;
using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>Authors in the authors_{engine} space; every call is one IPROTO request.</summary>
public sealed class TarantoolAuthorStore(TarantoolConnection connection, string engine) : IAuthorStore
{
    private readonly string _space = "authors_" + engine;

    public async Task<Author> CreateAsync(Author author, CancellationToken cancellationToken)
    {
        var spaceId = await connection.GetSpaceIdAsync(_space, cancellationToken);
        using var response = await connection.SendAsync(IprotoCode.Insert, (spaceId, author, (long?)null),
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
        using var response = await connection.SendAsync(IprotoCode.Update, (spaceId, author),
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

    /// <summary>An INSERT/REPLACE body: {space, tuple}.</summary>
    internal static void WriteTuple(ref MessagePackWriter writer, (uint SpaceId, Author Author, long? Id) request)
    {
        IprotoBody.WriteTupleHeader(ref writer, request.SpaceId);
        AuthorTuple.Write(ref writer, request.Author, request.Id);
    }

    private static void WriteDeleteExisting(ref MessagePackWriter writer, (string Space, long Id) call)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.FunctionName, "delete_existing");
        writer.WriteArrayHeader(2);
        writer.Write(call.Space);
        writer.Write(call.Id);
    }

    internal static void WriteUpdate(ref MessagePackWriter writer, (uint SpaceId, Author Author) request)
    {
        IprotoBody.WriteKeyHeader(ref writer, request.SpaceId, request.Author.Id, extraEntries: 1);
        writer.Write(IprotoKey.Tuple);
        // IPROTO update operations number fields from 0; field 0 (the id) stays.
        writer.WriteArrayHeader(AuthorTuple.FieldCount - 1);
        for (var field = 1; field < AuthorTuple.FieldCount; field++)
        {
            writer.WriteArrayHeader(3);
            writer.Write("=");
            writer.Write(field);
            AuthorTuple.WriteField(ref writer, request.Author, field);
        }
    }

    internal static Author? ReadOne(IprotoResponse response)
    {
        var reader = response.ReadData();
        return reader.ReadArrayHeader() == 0 ? null : AuthorTuple.Read(ref reader);
    }

    private static List<Author> ReadAll(IprotoResponse response)
    {
        var reader = response.ReadData();
        var count = reader.ReadArrayHeader();
        var authors = new List<Author>(count);
        for (var i = 0; i < count; i++) authors.Add(AuthorTuple.Read(ref reader));
        return authors;
    }
}
