using Crash.Cluster;

namespace Crash.Tests;

/// <summary>A cluster run's writes split by owner and outage window, and judged.</summary>
public sealed class ClusterSplitTests
{
    // Three nodes; the key's last character names its owner ("k-0" is node 0's); node 1 is struck from 2 s to 4 s.
    private static WriteRecord Write(long seq, string key, double sentS, ResponseClass answer) =>
        new(seq, key, creates: false, $"v{seq}", "http://n0", []) { SentS = sentS, Class = answer };

    private static OwnerSplit Split(params WriteRecord[] writes) =>
        OwnerSplit.Compute(writes, key => key[^1] - '0', nodes: 3, victim: 1, "http://n1", outageStartS: 2, outageEndS: 4);

    [Fact]
    public void OnlyWritesSentDuringTheOutageAreSplitAndEachByItsOwnersAnswer()
    {
        var split = Split(
            Write(0, "a-1", 1.0, ResponseClass.Ack),
            Write(1, "b-1", 2.5, ResponseClass.Unavailable),
            Write(2, "c-1", 3.0, ResponseClass.Timeout),
            Write(3, "d-1", 3.5, ResponseClass.OtherStatus),
            Write(4, "e-2", 3.6, ResponseClass.Ack),
            Write(5, "f-0", 3.7, ResponseClass.Unavailable),
            Write(6, "g-1", 4.0, ResponseClass.Ack));
        Assert.Equal([1L, 5, 1], split.WritesByOwner);
        Assert.Equal((3L, 1L, 0L, 1L, 1L), (split.VictimWrites, split.Victim503, split.VictimAcked, split.VictimOtherStatus, split.VictimNoAnswer));
        Assert.Equal((2L, 1L), (split.OthersWrites, split.OthersFailed));
    }

    [Fact]
    public void ARunWhoseStruckKeysGot503AndNothingElseFailedPassesItsCheck()
    {
        var split = Split(Write(0, "a-1", 2.5, ResponseClass.Unavailable), Write(1, "b-2", 2.6, ResponseClass.Ack));
        var result = new CrashResult { Acked = 1, KeysAcked = 1, Ok = 1, ReadBackReadyS = 9, FaultExitCode = 0 };
        Assert.True(ClusterCheck.Judge(result, split).Ok);
    }

    [Fact]
    public void AHangOnTheStruckKeysAFailureOnOthersAndALossEachFailTheCheck()
    {
        var split = Split(Write(0, "a-1", 2.5, ResponseClass.Timeout), Write(1, "b-2", 2.6, ResponseClass.Unavailable));
        var result = new CrashResult { Acked = 5, Lost = 1, ReadBackReadyS = 9, FaultExitCode = 0, TimeoutMs = 3000 };
        Assert.Equal(
            ["1 acknowledged writes lost", "no write to the struck node's keys answered 503 while it was down",
             "1 writes to the struck node's keys got no answer within 3000 ms", "1 writes to keys other nodes own failed while it was down"],
            ClusterCheck.Judge(result, split).Problems);
    }

    [Fact]
    public void WithoutAFaultStartNoWriteIsCountedAsDuringTheOutage()
    {
        var split = OwnerSplit.Compute([Write(0, "a-1", 2.5, ResponseClass.Unavailable)], key => key[^1] - '0', 3, 1, "http://n1", null, null);
        Assert.Equal((1L, 0L), (split.WritesByOwner[1], split.VictimWrites));
    }
}
