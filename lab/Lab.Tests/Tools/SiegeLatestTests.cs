using Lab.Tools;

namespace Lab.Tests.Tools;

/// <summary>reports/siege-latest follows the newest siege run folder of the reports folder, and nothing else.</summary>
public sealed class SiegeLatestTests : IDisposable
{
    private readonly string _reports = Directory.CreateTempSubdirectory("siege-latest-").FullName;

    [Fact]
    public void TheLinkPointsAtTheNewestRunFolder()
    {
        var first = Directory.CreateDirectory(Path.Combine(_reports, "siege-20260101T000000Z")).FullName;
        var second = Directory.CreateDirectory(Path.Combine(_reports, "siege-20260102T000000Z")).FullName;

        Assert.True(SiegeLatest.Point(_reports, first, TextWriter.Null));
        Assert.True(SiegeLatest.Point(_reports, second, TextWriter.Null));

        Assert.Equal("siege-20260102T000000Z", new FileInfo(Path.Combine(_reports, SiegeLatest.Name)).LinkTarget);
    }

    [Fact]
    public void AFolderElsewhereLeavesTheLinkAlone()
    {
        var elsewhere = Directory.CreateDirectory(Path.Combine(_reports, "mine", "siege-x")).FullName;

        Assert.False(SiegeLatest.Point(_reports, elsewhere, TextWriter.Null));
        Assert.False(new FileInfo(Path.Combine(_reports, SiegeLatest.Name)).Exists);
    }

    public void Dispose() => Directory.Delete(_reports, recursive: true);
}
