using Lab.Cluster;

namespace Lab.Tests.Cluster;

/// <summary>The state file cluster.env: the lines script/cluster wrote, read back the same.</summary>
public sealed class ClusterStateTests
{
    [Fact]
    public void TheFileHasTheLinesScriptClusterWrote() =>
        Assert.Equal("nodes=3\nstorage=tarantool-memtx\nserver=tarantool\nport=18180\n", new ClusterState(3, "tarantool-memtx", "tarantool", 18180).Format());

    [Fact]
    public void AWrittenStateReadsBackEqual()
    {
        var state = new ClusterState(12, "postgres", "postgres", 8080);
        Assert.Equal(state, ClusterState.Parse(state.Format()));
    }

    [Fact]
    public void AStateWithoutAPortIsRejectedNamingIt() =>
        Assert.Contains("port=", Assert.Throws<FormatException>(() => ClusterState.Parse("nodes=3\nstorage=postgres\nserver=postgres\n")).Message);

    [Fact]
    public void AMissingFileMeansNoClusterIsUp() =>
        Assert.Null(ClusterState.Read(Path.Combine(Path.GetTempPath(), Guid.NewGuid().ToString("N"), "cluster.env")));

    [Fact]
    public void TheAlreadyUpMessageShowsTheFileOnOneLine() =>
        Assert.Equal("nodes=3 storage=postgres server=postgres port=8080 ", ClusterState.Describe("nodes=3\nstorage=postgres\nserver=postgres\nport=8080\n"));
}
