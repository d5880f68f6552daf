using System.Buffers;
using BenchmarkDotNet.Attributes;
using IntegrationService.Authors;
using IntegrationService.Storage.Tarantool;
using Tarantool.Iproto;
using MessagePack;

namespace Iproto.Benchmarks;

/// <summary>
/// The Author tuple through the IPROTO codec, as the store does it: encode one REPLACE body into
/// a reused buffer, and decode one Author from the body of a SELECT answer.
/// </summary>
[MemoryDiagnoser]
public class AuthorCodecBenchmarks
{
    private const uint SpaceId = 512;

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
        BirthDateTime = new DateTime(1799, 6, 6, 10, 0, 0, DateTimeKind.Utc),
    };

    private readonly ArrayBufferWriter<byte> _output = new(1024);
    private byte[] _selectAnswer = [];

    [GlobalSetup]
    public void Setup()
    {
        // A SELECT answer body: {IPROTO_DATA: [tuple]}.
        var body = new ArrayBufferWriter<byte>();
        var writer = new MessagePackWriter(body);
        writer.WriteMapHeader(1);
        writer.Write(IprotoKey.Data);
        writer.WriteArrayHeader(1);
        AuthorTuple.Write(ref writer, Pushkin, Pushkin.Id);
        writer.Flush();
        _selectAnswer = body.WrittenSpan.ToArray();
    }

    [Benchmark]
    public int EncodeAuthor()
    {
        _output.ResetWrittenCount();
        var writer = new MessagePackWriter(_output);
        TarantoolAuthorStore.WriteTuple(ref writer, (SpaceId, Pushkin, Pushkin.Id));
        writer.Flush(); // MessagePackWriter buffers until flushed; the frame writer flushes once per frame
        return _output.WrittenCount;
    }

    [Benchmark]
    public Author? DecodeAuthor() => TarantoolAuthorStore.ReadOne(new IprotoResponse(_selectAnswer, _selectAnswer.Length));
}
