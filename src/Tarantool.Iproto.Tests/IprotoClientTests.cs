using System.Diagnostics;
using MessagePack;

namespace Tarantool.Iproto.Tests;

/// <summary>The IPROTO client against the real server.</summary>
public sealed class IprotoClientTests : IAsyncLifetime
{
    private IprotoClient _connection = null!;

    public async Task InitializeAsync() => _connection = await TarantoolTestServer.ConnectAsync();

    public async Task DisposeAsync() => await _connection.DisposeAsync();

    [Fact]
    public async Task PingIsAnswered()
    {
        using var response = await _connection.SendAsync(IprotoCode.Ping, 0, null, CancellationToken.None);

        Assert.True(_connection.IsConnected);
    }

    [Fact]
    public async Task EvalReturnsItsValues()
    {
        using var response = await EvalAsync("return 1 + 2, 'three', nil, {4.5}");

        var reader = response.ReadData();
        Assert.Equal(4, reader.ReadArrayHeader());
        Assert.Equal(3, reader.ReadInt64());
        Assert.Equal("three", reader.ReadString());
        Assert.True(reader.TryReadNil());
        Assert.Equal(1, reader.ReadArrayHeader());
        Assert.Equal(4.5, reader.ReadDouble());
    }

    [Fact]
    public async Task ServerErrorsBecomeIprotoServerExceptionNotUnavailable()
    {
        var error = await Assert.ThrowsAsync<IprotoServerException>(() => EvalAsync("error('boom')"));

        Assert.Contains("boom", error.Message);
        Assert.True(_connection.IsConnected);
    }

    [Fact]
    public async Task RequestWithoutAnAnswerInTimeFailsAsUnavailable()
    {
        await using var impatient = await TarantoolTestServer.ConnectAsync(requestTimeoutMs: 200);
        var watch = Stopwatch.StartNew();

        var error = await Assert.ThrowsAsync<IprotoUnavailableException>(() =>
            impatient.SendAsync(IprotoCode.Eval, "require('fiber').sleep(10)", WriteEval, CancellationToken.None));

        Assert.Equal(IprotoUnavailableReason.Timeout, error.Reason);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"took {watch.Elapsed}"); // the 200-ms timeout, not the 10-s sleep
        // The connection survives a slow request, and its late answer is dropped.
        using var ping = await impatient.SendAsync(IprotoCode.Ping, 0, null, CancellationToken.None);
    }

    [Fact]
    public async Task TenThousandConcurrentRequestsAreAllAnsweredOnOneConnection()
    {
        await using var connection = await TarantoolTestServer.ConnectAsync(requestTimeoutMs: 30_000);
        var requests = Enumerable.Range(0, 10_000).Select(async i =>
        {
            using var response = await connection.SendAsync(IprotoCode.Eval, i, WriteEcho, CancellationToken.None);
            var reader = response.ReadData();
            reader.ReadArrayHeader();
            return reader.ReadInt64();
        }).ToArray();

        var answers = await Task.WhenAll(requests);

        Assert.Equal(Enumerable.Range(0, 10_000).Select(i => (long)i), answers);
    }

    [Fact]
    public async Task InsertedTupleReadsBack()
    {
        var spaceId = await _connection.GetSpaceIdAsync("locations_memtx", CancellationToken.None);
        var id = Random.Shared.NextInt64(1_000_000_000, 2_000_000_000);

        using (await _connection.SendAsync(IprotoCode.Replace, (spaceId, id), WriteLocation, CancellationToken.None))
        {
        }
        using var response = await _connection.SendAsync(IprotoCode.Select, (spaceId, id), IprotoBody.WriteSelectById, CancellationToken.None);
        using (await _connection.SendAsync(IprotoCode.Delete, (spaceId, id), IprotoBody.WriteDeleteById, CancellationToken.None))
        {
        }

        var reader = response.ReadData();
        Assert.Equal(1, reader.ReadArrayHeader());
        Assert.Equal(4, reader.ReadArrayHeader());
        Assert.Equal(id, reader.ReadInt64());
        Assert.Equal("test location", reader.ReadString());
        Assert.Equal(53.4747, reader.ReadDouble());
        Assert.Equal(-14.2082, reader.ReadDouble());
    }

    private Task<IprotoResponse> EvalAsync(string expression) =>
        _connection.SendAsync(IprotoCode.Eval, expression, WriteEval, CancellationToken.None);

    private static void WriteEval(ref MessagePackWriter writer, string expression)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.Expression, expression);
        writer.WriteArrayHeader(0);
    }

    private static void WriteEcho(ref MessagePackWriter writer, int value)
    {
        IprotoBody.WriteCallHeader(ref writer, IprotoKey.Expression, "return ...");
        writer.WriteArrayHeader(1);
        writer.Write(value);
    }

    private static void WriteLocation(ref MessagePackWriter writer, (uint SpaceId, long Id) request)
    {
        IprotoBody.WriteTupleHeader(ref writer, request.SpaceId);
        writer.WriteArrayHeader(4);
        writer.Write(request.Id);
        writer.Write("test location");
        writer.Write(53.4747);
        writer.Write(-14.2082);
    }
}
