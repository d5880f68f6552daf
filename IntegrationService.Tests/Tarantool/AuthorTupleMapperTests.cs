using System.Buffers;
using IntegrationService.Authors;
using IntegrationService.Storage.Tarantool;
using IntegrationService.Storage.Tarantool.Iproto;

namespace IntegrationService.Tests.Tarantool;

public sealed class AuthorTupleMapperTests
{
    private static readonly Author Pushkin = new()
    {
        Id = 7,
        Name = "alexander",
        FamilyName = "pushkin",
        MiddleName = "sergeevich",
        Age = 20,
        BirthCountry = "russia",
        BirthCity = "moscow",
        BooksCount = 255,
        Nationality = "russian",
        BirthDateTime = new DateTime(2020, 5, 24, 13, 9, 57, 635, DateTimeKind.Utc).AddTicks(1230),
    };

    [Fact]
    public void AuthorRoundTripsThroughTheTupleWithMicrosecondPrecision()
    {
        var bytes = WriteTuple(AuthorTuple.FromAuthor(Pushkin, Pushkin.Id));

        var reader = new MsgPackReader(bytes);
        var author = MsgPackArrayMapper<AuthorTuple>.Read(ref reader).ToAuthor();

        Assert.Equal(Pushkin, author);
        Assert.Equal(DateTimeKind.Utc, author.BirthDateTime!.Value.Kind);
    }

    [Fact]
    public void TupleFollowsTheFieldOrderOfInitLua()
    {
        var bytes = WriteTuple(AuthorTuple.FromAuthor(Pushkin with { BirthDateTime = DateTime.UnixEpoch.AddSeconds(1) }, id: null));

        var reader = new MsgPackReader(bytes);
        Assert.Equal(10, reader.ReadArrayHeader());
        Assert.True(reader.TryReadNil()); // 1 id: nil so the sequence assigns it
        Assert.Equal("alexander", reader.ReadString());
        Assert.Equal("pushkin", reader.ReadString());
        Assert.Equal("sergeevich", reader.ReadString());
        Assert.Equal(20, reader.ReadInt64());
        Assert.Equal("russia", reader.ReadString());
        Assert.Equal("moscow", reader.ReadString());
        Assert.Equal(255, reader.ReadInt64());
        Assert.Equal("russian", reader.ReadString());
        Assert.Equal(1_000_000, reader.ReadInt64()); // 10 birth_date_time in microseconds
        Assert.True(reader.End);
    }

    [Fact]
    public void NullOptionalFieldsAreNilAndShortTuplesKeepDefaults()
    {
        var sparse = new Author { Id = 3, Name = "a", FamilyName = "b" };
        var bytes = WriteTuple(AuthorTuple.FromAuthor(sparse, sparse.Id));
        Assert.Equal(sparse, Read(bytes));

        // Tarantool may omit trailing nullable fields.
        var shortTuple = MsgPackRoundTripTests.Write((ref MsgPackWriter w) =>
        {
            w.WriteArrayHeader(3);
            w.WriteInt64(3);
            w.WriteString("a");
            w.WriteString("b");
        });
        Assert.Equal(sparse, Read(shortTuple));
    }

    [Fact]
    public void DatesBeforeTheEpochRoundTrip()
    {
        var old = Pushkin with { BirthDateTime = new DateTime(1799, 6, 6, 10, 0, 0, DateTimeKind.Utc).AddTicks(10) };

        Assert.Equal(old, Read(WriteTuple(AuthorTuple.FromAuthor(old, old.Id))));
    }

    [Fact]
    public void UpdateOperationsWriteSingleElements()
    {
        var tuple = AuthorTuple.FromAuthor(Pushkin, Pushkin.Id);
        var bytes = MsgPackRoundTripTests.Write((ref MsgPackWriter w) => MsgPackArrayMapper<AuthorTuple>.WriteElement(ref w, tuple, 2));

        Assert.Equal(10, MsgPackArrayMapper<AuthorTuple>.ElementCount);
        Assert.Equal("pushkin", new MsgPackReader(bytes).ReadString());
    }

    private static byte[] WriteTuple(AuthorTuple tuple)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new MsgPackWriter(output);
        MsgPackArrayMapper<AuthorTuple>.Write(ref writer, tuple);
        return output.WrittenSpan.ToArray();
    }

    private static Author Read(byte[] bytes)
    {
        var reader = new MsgPackReader(bytes);
        return MsgPackArrayMapper<AuthorTuple>.Read(ref reader).ToAuthor();
    }
}
