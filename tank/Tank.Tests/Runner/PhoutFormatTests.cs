using Tank.Runner;

namespace Tank.Tests.Runner;

public sealed class PhoutFormatTests
{
    [Fact]
    public void WritesTwelveTabSeparatedFieldsInMicroseconds()
    {
        var record = new PhoutRecord
        {
            StartUnixUs = 1_326_453_006_582_123, Tag = "author-read", ConnectUs = 0, SendUs = 12, LatencyUs = 1_500, ReceiveUs = 30,
            IntervalEventUs = 1_542, SizeOut = 78, SizeIn = 220, NetCode = 0, ProtoCode = 200,
        };
        var line = PhoutFormat.Format(record);
        Assert.Equal("1326453006.582\tauthor-read\t1542\t0\t12\t1500\t30\t1542\t78\t220\t0\t200\n", line);
        var fields = line.TrimEnd('\n').Split('\t');
        Assert.Equal(12, fields.Length);
        Assert.Equal(long.Parse(fields[2]), fields[3..7].Sum(long.Parse));
    }

    [Fact]
    public void SendTimeKeepsLeadingZerosOfMilliseconds() =>
        Assert.StartsWith("1700000000.007\t\t", PhoutFormat.Format(new PhoutRecord { StartUnixUs = 1_700_000_000_007_999, Tag = "" }));
}
