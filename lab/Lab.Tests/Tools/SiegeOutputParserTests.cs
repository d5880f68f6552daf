using Lab.Tools;

namespace Lab.Tests.Tools;

/// <summary>siege 4.0.7's statistics read from real outputs (Tools/Samples/siege-*.txt, captured against the service on the test servers).</summary>
public sealed class SiegeOutputParserTests
{
    [Fact]
    public void AWriteRunsFiguresComeThroughDigitForDigit()
    {
        // This run was siege's first in a fresh HOME: its two "New configuration template" lines come first.
        var s = SiegeOutputParser.Parse(Samples.Read("siege-write-redis_aof-c10.txt"));

        Assert.Equal(new SiegeStatistics(4229, 100.00m, 2.20m, 1922.27m, 4229, 0, 0.18m, Aborted: false), s);
        Assert.Equal("100.00", s.Availability!.Value.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.True(s.Printed);
    }

    [Fact]
    public void AReadOfAnEmptyQueueIsAllSuccesses() =>
        Assert.Equal(new SiegeStatistics(6410, 100.00m, 1.99m, 3221.11m, 6410, 0, 0.07m, false), SiegeOutputParser.Parse(Samples.Read("siege-read-empty-c10.txt")));

    [Fact]
    public void A404IsATransactionButNotASuccess()
    {
        var s = SiegeOutputParser.Parse(Samples.Read("siege-unknown-queue-c5.txt"));

        Assert.Equal((20L, 0L, 0L), (s.Transactions!.Value, s.Successful!.Value, s.Failed!.Value));
    }

    [Fact]
    public void ColouredSocketErrorsAndTheAbortAreRead()
    {
        var refused = SiegeOutputParser.Parse(Samples.Read("siege-refused-c5.txt"));
        var aborted = SiegeOutputParser.Parse(Samples.Read("siege-aborted-c5.txt"));

        Assert.Equal((0L, 100L, false), (refused.Transactions!.Value, refused.Failed!.Value, refused.Aborted));
        Assert.Equal((0L, 1028L, true), (aborted.Transactions!.Value, aborted.Failed!.Value, aborted.Aborted));
    }

    [Fact]
    public void ARunKilledBeforeItsEndPrintedNoStatistics()
    {
        var s = SiegeOutputParser.Parse(Samples.Read("siege-killed-c5.txt"));

        Assert.False(s.Printed);
        Assert.Equal(new SiegeStatistics(null, null, null, null, null, null, null, false), s);
    }

    [Fact]
    public void CrlfLinesAreRead() =>
        Assert.Equal(1922.27m, SiegeOutputParser.Parse(Samples.Read("siege-write-redis_aof-c10.txt").Replace("\n", "\r\n")).Rate);
}
