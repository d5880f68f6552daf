using IntegrationService.Authors;
using IntegrationService.Storage.Tarantool;
using Tarantool.Iproto;
using MessagePack;
using Tarantool.Iproto.Tests;

namespace IntegrationService.Tests.Tarantool;

public sealed class AuthorTupleTests
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
        var author = Read(WriteTuple(Pushkin, Pushkin.Id));

        Assert.Equal(Pushkin, author);
        Assert.Equal(DateTimeKind.Utc, author.BirthDateTime!.Value.Kind);
    }

    [Fact]
    public void TupleFollowsTheFieldOrderOfInitLua()
    {
        var bytes = WriteTuple(Pushkin with { BirthDateTime = DateTime.UnixEpoch.AddSeconds(1) }, id: null);

        var reader = new MessagePackReader(bytes);
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
        Assert.Equal(sparse, Read(WriteTuple(sparse, sparse.Id)));

        // Tarantool may omit trailing nullable fields.
        var shortTuple = MessagePackBytes.Write((ref MessagePackWriter w) =>
        {
            w.WriteArrayHeader(3);
            w.Write(3);
            w.Write("a");
            w.Write("b");
        });
        Assert.Equal(sparse, Read(shortTuple));
    }

    [Fact]
    public void FieldsBeyondTheFormatAreSkipped()
    {
        var longer = MessagePackBytes.Write((ref MessagePackWriter w) =>
        {
            w.WriteArrayHeader(12);
            var tuple = WriteTuple(Pushkin, Pushkin.Id);
            w.WriteRaw(tuple.AsSpan(1)); // the ten fields without their header
            w.Write("extra");
            w.WriteArrayHeader(1);
            w.Write(1);
        });

        Assert.Equal(Pushkin, Read(longer));
    }

    [Fact]
    public void DatesBeforeTheEpochRoundTrip()
    {
        var old = Pushkin with { BirthDateTime = new DateTime(1799, 6, 6, 10, 0, 0, DateTimeKind.Utc).AddTicks(10) };

        Assert.Equal(old, Read(WriteTuple(old, old.Id)));
    }

    [Fact]
    public void InsertBodyIsSpaceAndTupleAndReadsBackFromASelectAnswer()
    {
        var body = MessagePackBytes.Write((ref MessagePackWriter w) => TarantoolAuthorStore.WriteTuple(ref w, (512u, Pushkin, Pushkin.Id)));
        var reader = new MessagePackReader(body);
        Assert.Equal(2, reader.ReadMapHeader());
        Assert.Equal(IprotoKey.SpaceId, reader.ReadInt32());
        Assert.Equal(512u, reader.ReadUInt32());
        Assert.Equal(IprotoKey.Tuple, reader.ReadInt32());
        var tuple = body[(int)reader.Consumed..];

        using var answer = TarantoolCodecTests.Answer((ref MessagePackWriter w) =>
        {
            w.WriteArrayHeader(1);
            w.WriteRaw(tuple);
        });
        using var empty = TarantoolCodecTests.Answer((ref MessagePackWriter w) => w.WriteArrayHeader(0));

        Assert.Equal(Pushkin, TarantoolAuthorStore.ReadOne(answer));
        Assert.Null(TarantoolAuthorStore.ReadOne(empty));
    }

    [Fact]
    public void UpdateSetsEveryFieldButTheId()
    {
        var body = MessagePackBytes.Write((ref MessagePackWriter w) => TarantoolAuthorStore.WriteUpdate(ref w, (512u, Pushkin)));

        var reader = new MessagePackReader(body);
        Assert.Equal(4, reader.ReadMapHeader());
        for (var i = 0; i < 4; i++) reader.Skip(); // space: 512, index: 0
        Assert.Equal(IprotoKey.Key, reader.ReadInt32());
        Assert.Equal(1, reader.ReadArrayHeader());
        Assert.Equal(7, reader.ReadInt64());
        Assert.Equal(IprotoKey.Tuple, reader.ReadInt32());
        Assert.Equal(9, reader.ReadArrayHeader());
        Assert.Equal(3, reader.ReadArrayHeader());
        Assert.Equal("=", reader.ReadString());
        Assert.Equal(1, reader.ReadInt32());
        Assert.Equal("alexander", reader.ReadString());
        Assert.Equal(3, reader.ReadArrayHeader());
        Assert.Equal("=", reader.ReadString());
        Assert.Equal(2, reader.ReadInt32());
        Assert.Equal("pushkin", reader.ReadString());
        for (var i = 0; i < 7; i++) reader.Skip();
        Assert.True(reader.End);
    }

    private static byte[] WriteTuple(Author author, long? id) =>
        MessagePackBytes.Write((ref MessagePackWriter w) => AuthorTuple.Write(ref w, author, id));

    private static Author Read(byte[] bytes)
    {
        var reader = new MessagePackReader(bytes);
        return AuthorTuple.Read(ref reader);
    }
}
