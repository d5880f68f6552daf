using System.Text;
using Tank.Ammo;
using Harness.CommandLine;

namespace Tank.Tests.Ammo;

public sealed class AmmoFormatTests
{
    private static AmmoOptions Options(Scenario scenario, ulong seed = 7) =>
        new() { Scenario = scenario, Storage = "postgres", Host = "127.0.0.1:8080", Count = 300, Seed = seed };

    private static byte[] Write(AmmoFormat format, AmmoOptions options)
    {
        using var stream = new MemoryStream();
        AmmoWriter.Write(stream, format, AmmoGenerator.Generate(options));
        return stream.ToArray();
    }

    [Fact]
    public void PhantomSizesAreUtf8ByteCounts()
    {
        var data = Write(AmmoFormat.Phantom, Options(Scenario.AuthorWrite));
        var pos = 0;
        var sawNonAscii = false;
        while (pos < data.Length)
        {
            var headerEnd = Array.IndexOf(data, (byte)'\n', pos);
            var size = int.Parse(Encoding.ASCII.GetString(data, pos, headerEnd - pos).Split(' ')[0]);
            var request = data.AsSpan(headerEnd + 1, size);
            var text = Encoding.UTF8.GetString(request);
            sawNonAscii |= text.Length != size;
            Assert.Equal(size, Encoding.UTF8.GetByteCount(text));
            Assert.StartsWith("POST /Author/Save?storage=postgres HTTP/1.1\r\n", text);
            var body = text[(text.IndexOf("\r\n\r\n", StringComparison.Ordinal) + 4)..];
            Assert.Contains($"Content-Length: {Encoding.UTF8.GetByteCount(body)}\r\n", text);
            Assert.Equal((byte)'\n', data[headerEnd + 1 + size]);
            pos = headerEnd + 1 + size + 1;
        }
        Assert.True(sawNonAscii, "the generator should produce some non-ASCII names so byte and char counts differ");
    }

    [Theory]
    [InlineData(Scenario.AuthorWrite, AmmoFormat.Phantom)]
    [InlineData(Scenario.AuthorMixed, AmmoFormat.Phantom)]
    [InlineData(Scenario.ItemWrite, AmmoFormat.Phantom)]
    [InlineData(Scenario.AuthorRead, AmmoFormat.Uri)]
    [InlineData(Scenario.ItemRead, AmmoFormat.Uri)]
    [InlineData(Scenario.AuthorWrite, AmmoFormat.UriPost)]
    [InlineData(Scenario.ItemWrite, AmmoFormat.UriPost)]
    public void RoundTripGivesTheSameRequestBytes(Scenario scenario, AmmoFormat format)
    {
        var options = Options(scenario);
        var expected = AmmoGenerator.Generate(options).Select(r => r.Spec.Encode()).ToList();
        var read = AmmoReader.Parse(Write(format, options), "ammo.txt", format, "1.1");
        Assert.Equal(expected.Count, read.Count);
        for (var i = 0; i < expected.Count; i++) Assert.Equal(expected[i], read[i].Bytes);
        Assert.All(read, r => Assert.Equal(scenario.Name(), r.Tag));
    }

    [Fact]
    public void SameSeedSameAmmoOtherSeedOtherAmmo()
    {
        Assert.Equal(Write(AmmoFormat.Phantom, Options(Scenario.ItemWrite, 1)), Write(AmmoFormat.Phantom, Options(Scenario.ItemWrite, 1)));
        Assert.NotEqual(Write(AmmoFormat.Phantom, Options(Scenario.ItemWrite, 1)), Write(AmmoFormat.Phantom, Options(Scenario.ItemWrite, 2)));
    }

    [Fact]
    public void ItemIdsSpreadOverTheDataSetUnlessHotKey()
    {
        var spread = AmmoGenerator.Generate(Options(Scenario.ItemRead) with { Count = 2000 }).Select(r => r.Spec.Uri).Distinct().Count();
        Assert.True(spread > 1900, $"only {spread} distinct items");
        var hot = AmmoGenerator.Generate(Options(Scenario.ItemRead) with { HotKey = true }).Select(r => r.Spec.Uri).Distinct().ToList();
        Assert.Equal(["/item/5/locations?storage=postgres"], hot);
    }

    [Fact]
    public void ItemWriteBodiesHoldZeroToSixDistinctLocations()
    {
        var counts = AmmoGenerator.Generate(Options(Scenario.ItemWrite) with { Count = 1000 }).Select(r =>
        {
            var body = Encoding.UTF8.GetString(r.Spec.Body);
            Assert.StartsWith("{\"LocationIds\":[", body);
            var ids = body["{\"LocationIds\":[".Length..^2].Split(',', StringSplitOptions.RemoveEmptyEntries).Select(long.Parse).ToList();
            Assert.Equal(ids.Count, ids.Distinct().Count());
            Assert.All(ids, id => Assert.InRange(id, 1, 100_000));
            return ids.Count;
        }).ToHashSet();
        Assert.Equal([0, 1, 2, 3, 4, 5, 6], counts.Order());
    }

    [Fact]
    public void MixedIsAboutNinetyPercentReads()
    {
        var reads = AmmoGenerator.Generate(Options(Scenario.AuthorMixed) with { Count = 10_000 }).Count(r => r.Spec.Method == "GET");
        Assert.InRange(reads, 8_800, 9_200);
    }

    [Fact]
    public void AuthorBodiesAreValidJsonInRange()
    {
        foreach (var (spec, _) in AmmoGenerator.Generate(Options(Scenario.AuthorWrite)))
        {
            using var json = System.Text.Json.JsonDocument.Parse(spec.Body);
            Assert.InRange(json.RootElement.GetProperty("age").GetInt32(), 0, 255);
            Assert.InRange(json.RootElement.GetProperty("booksCount").GetInt32(), 0, 255);
            Assert.True(json.RootElement.GetProperty("birthDateTime").TryGetDateTimeOffset(out _));
            Assert.False(json.RootElement.TryGetProperty("id", out _));
        }
    }

    [Fact]
    public void UriFormatRefusesWrites() =>
        Assert.Throws<InputException>(() => Write(AmmoFormat.Uri, Options(Scenario.AuthorWrite)));
}
