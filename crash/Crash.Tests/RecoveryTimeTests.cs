using Crash;

namespace Crash.Tests;

public sealed class RecoveryTimeTests
{
    private static WriteTiming Ok(double sent, double completed) => new(sent, completed, Acked: true);
    private static WriteTiming Failed(double sent, double completed) => new(sent, completed, Acked: false);

    [Fact]
    public void NoFailureMeansNoRecoveryTime()
    {
        var recovery = RecoveryTime.Compute([Ok(1, 1.01), Ok(9, 9.01)], faultStartS: 8);
        Assert.Equal(0, recovery.RecoveryS);
        Assert.Null(recovery.FirstFailureS);
        Assert.Null(recovery.LastFailureS);
        Assert.Equal(0, recovery.Failed);
    }

    [Fact]
    public void RecoveryEndsWithTheFirstAckOfAWriteSentAfterTheLastFailure()
    {
        var writes = new[]
        {
            Ok(7.9, 7.91),
            Failed(8.1, 8.2),
            Ok(8.15, 8.16),     // an ack between failures does not end the outage
            Failed(9.0, 12.0),  // a timeout: the last failed write is the last one *sent*
            Ok(9.5, 10.4),      // sent after the last failure; the earliest to complete
            Ok(9.2, 10.5),      // sent before it, does not count
            Ok(9.6, 10.45),
        };
        var recovery = RecoveryTime.Compute(writes, faultStartS: 8.0);
        Assert.Equal(2.4, recovery.RecoveryS!.Value, 9);
        Assert.Equal(8.1, recovery.FirstFailureS);
        Assert.Equal(9.0, recovery.LastFailureS);
        Assert.Equal(2, recovery.Failed);
        // Writes failed from the first failed write's sending (8.1 s) to that first acknowledgement after the last failure (10.4 s).
        Assert.Equal(2.3, recovery.UnavailableS!.Value, 9);
    }

    [Fact]
    public void NoFailureIsNoUnavailabilityAndNoAckAfterTheLastFailureIsNone()
    {
        Assert.Equal(0, RecoveryTime.Compute([Ok(1, 1.01)], faultStartS: 8).UnavailableS);
        Assert.Null(RecoveryTime.Compute([Ok(1, 1.1), Failed(8.5, 8.6)], faultStartS: 8).UnavailableS);
    }

    [Fact]
    public void NoAckAfterTheLastFailureMeansTheApiNeverCameBack() =>
        Assert.Null(RecoveryTime.Compute([Ok(1, 1.1), Failed(8.5, 8.6), Failed(9, 9.1)], faultStartS: 8).RecoveryS);

    [Fact]
    public void FailuresBeforeTheFaultNeverGiveANegativeTime() =>
        Assert.Equal(0, RecoveryTime.Compute([Failed(1, 1.1), Ok(2, 2.1)], faultStartS: 8).RecoveryS);
}
