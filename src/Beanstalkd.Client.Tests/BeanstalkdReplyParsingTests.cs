
namespace Beanstalkd.Client.Tests;

/// <summary>Cutting replies out of received bytes and reading them as answers, without a server.</summary>
public sealed class BeanstalkdReplyParsingTests
{
    private static readonly byte[] Tube = "jobs"u8.ToArray();

    [Fact]
    public void AReplyArrivingByteByByteIsReadOnceItIsWholeAndOnlyThen()
    {
        var reply = "RESERVED 7 6\r\na\r\nb\r\n\r\nINSERTED 8\r\n"u8.ToArray();
        var whole = "RESERVED 7 6\r\na\r\nb\r\n\r\n".Length;

        for (var received = 0; received < whole; received++)
        {
            Assert.Equal(BeanstalkdFrameStatus.Incomplete, BeanstalkdReplyFrame.TryRead(reply.AsSpan(0, received), out _, out _));
        }
        Assert.Equal(BeanstalkdFrameStatus.Complete, BeanstalkdReplyFrame.TryRead(reply, out var frame, out var length));
        Assert.Equal(whole, length);
        Assert.Equal("RESERVED 7 6"u8.ToArray(), frame.Line.ToArray());
        Assert.Equal("a\r\nb\r\n"u8.ToArray(), frame.Data.ToArray());

        Assert.Equal(BeanstalkdFrameStatus.Complete, BeanstalkdReplyFrame.TryRead(reply.AsSpan(length), out var next, out _));
        Assert.Equal("INSERTED 8"u8.ToArray(), next.Line.ToArray());
    }

    [Fact]
    public void AnIncompleteBodyTellsHowLargeTheWholeReplyWillBe()
    {
        Assert.Equal(BeanstalkdFrameStatus.Incomplete, BeanstalkdReplyFrame.TryRead("RESERVED 1 100000\r\nabc"u8, out _, out var length));
        Assert.Equal("RESERVED 1 100000\r\n".Length + 100_000 + 2, length);
    }

    [Theory]
    [InlineData("RESERVED 1 3\r\nabcd\r\n")] // the body is longer than announced
    [InlineData("RESERVED 1 x\r\nabc\r\n")]
    [InlineData("OK -1\r\n\r\n")]
    [InlineData("RESERVED 1 99999999999\r\n")]
    public void ABodyThatDoesNotMatchItsCountIsMalformed(string received)
    {
        Assert.Equal(BeanstalkdFrameStatus.Malformed, BeanstalkdReplyFrame.TryRead(System.Text.Encoding.ASCII.GetBytes(received), out _, out _));
    }

    [Fact]
    public void ALineLongerThanAnyReplyIsMalformed()
    {
        var endless = new byte[BeanstalkdReplyFrame.MaxLineLength + 1];
        Array.Fill(endless, (byte)'x');

        Assert.Equal(BeanstalkdFrameStatus.Malformed, BeanstalkdReplyFrame.TryRead(endless, out _, out _));
    }

    [Fact]
    public void StatsTubeGivesTheReadyCount()
    {
        var yaml = "---\nname: jobs\ncurrent-jobs-urgent: 2\ncurrent-jobs-ready: 42\ncurrent-jobs-reserved: 1\n";
        var reply = Parse(BeanstalkdCommand.StatsTube, $"OK {yaml.Length}\r\n{yaml}\r\n", out var result, out _);

        Assert.Equal(BeanstalkdReplyOutcome.Success, reply);
        Assert.Equal(42UL, result.Number);
    }

    [Fact]
    public void StatsTubeOfATubeThatDoesNotExistIsZero()
    {
        Assert.Equal(BeanstalkdReplyOutcome.Success, Parse(BeanstalkdCommand.StatsTube, "NOT_FOUND\r\n", out var result, out _));
        Assert.Equal(0UL, result.Number);
    }

    [Theory]
    [InlineData("TIMED_OUT\r\n")]
    [InlineData("DEADLINE_SOON\r\n")]
    public void AReserveWithoutAJobIsNoJob(string reply)
    {
        Assert.Equal(BeanstalkdReplyOutcome.Success, Parse(BeanstalkdCommand.Reserve, reply, out var result, out _));
        Assert.Null(result.Body);
    }

    [Theory]
    [InlineData("Release", "RELEASED\r\n")]
    [InlineData("Touch", "TOUCHED\r\n")]
    [InlineData("Delete", "DELETED\r\n")]
    public void AReservationsCommandsSucceedOnTheirOwnWord(string command, string reply)
    {
        Assert.Equal(BeanstalkdReplyOutcome.Success, Parse(Enum.Parse<BeanstalkdCommand>(command), reply, out _, out _));
    }

    [Theory]
    [InlineData("Put", "JOB_TOO_BIG\r\n", "JOB_TOO_BIG")]
    [InlineData("Put", "BURIED 12\r\n", "BURIED")]
    [InlineData("Put", "DRAINING\r\n", "DRAINING")]
    [InlineData("Put", "EXPECTED_CRLF\r\n", "EXPECTED_CRLF")]
    [InlineData("Delete", "NOT_FOUND\r\n", "NOT_FOUND")]
    [InlineData("Touch", "NOT_FOUND\r\n", "NOT_FOUND")]
    [InlineData("Release", "NOT_FOUND\r\n", "NOT_FOUND")]
    [InlineData("Release", "BURIED\r\n", "BURIED")]
    [InlineData("Reserve", "OUT_OF_MEMORY\r\n", "OUT_OF_MEMORY")]
    [InlineData("Watch", "INTERNAL_ERROR\r\n", "INTERNAL_ERROR")]
    [InlineData("ListTubeUsed", "UNKNOWN_COMMAND\r\n", "UNKNOWN_COMMAND")]
    [InlineData("StatsTube", "BAD_FORMAT\r\n", "BAD_FORMAT")]
    public void AnErrorWordFailsTheCallButKeepsTheConnection(string command, string reply, string word)
    {
        Assert.Equal(BeanstalkdReplyOutcome.ServerError, Parse(Enum.Parse<BeanstalkdCommand>(command), reply, out _, out var error));
        Assert.Equal(word, error!.Reply);
    }

    [Theory]
    [InlineData("Put", "INSERTED\r\n")]
    [InlineData("Put", "INSERTED -1\r\n")]
    [InlineData("Put", "DELETED\r\n")]
    [InlineData("Delete", "NOT_FOUND please\r\n")]
    [InlineData("Touch", "RELEASED\r\n")]
    [InlineData("Release", "TOUCHED\r\n")]
    [InlineData("Reserve", "RESERVED x 1\r\na\r\n")]
    [InlineData("StatsTube", "OK 4\r\n---\n\r\n")]
    [InlineData("Use", "USING other\r\n")]
    [InlineData("ListTubeUsed", "USING jobs2\r\n")]
    public void AReplyThatDoesNotFitTheCommandDropsTheConnection(string command, string reply)
    {
        Assert.Equal(BeanstalkdReplyOutcome.Unexpected, Parse(Enum.Parse<BeanstalkdCommand>(command), reply, out _, out var error));
        Assert.Equal(reply.TrimEnd('\n', '\r').Split("\r\n")[0], error!.Reply);
    }

    [Fact]
    public void ACommandLineIsWrittenWithItsBody()
    {
        var writer = new BeanstalkdCommandWriter("jobs", TimeSpan.FromSeconds(59.5));
        var output = new System.Buffers.ArrayBufferWriter<byte>();

        writer.Write(output, BeanstalkdCommand.Put, 0, "a\r\nb"u8);
        writer.Write(output, BeanstalkdCommand.Delete, 18_446_744_073_709_551_615, default);
        writer.Write(output, BeanstalkdCommand.StatsTube, 0, default);
        writer.Write(output, BeanstalkdCommand.Release, 5, default);
        writer.Write(output, BeanstalkdCommand.Touch, 18_446_744_073_709_551_615, default);

        Assert.Equal("put 1024 0 60 4\r\na\r\nb\r\ndelete 18446744073709551615\r\nstats-tube jobs\r\n"
            + "release 5 1024 0\r\ntouch 18446744073709551615\r\n",
            System.Text.Encoding.ASCII.GetString(output.WrittenSpan));
    }

    [Theory]
    [InlineData("default", true)]
    [InlineData("a-b+c/d;e.f$g_h(i)", true)]
    [InlineData("-starts-with-hyphen", false)]
    [InlineData("has space", false)]
    [InlineData("", false)]
    [InlineData("é", false)]
    public void TubeNamesFollowBeanstalkdsRule(string name, bool valid)
    {
        Assert.Equal(valid, BeanstalkdClientOptions.IsValidTubeName(name));
        Assert.False(BeanstalkdClientOptions.IsValidTubeName(new string('a', BeanstalkdClientOptions.MaxTubeNameLength + 1)));
    }

    private static BeanstalkdReplyOutcome Parse(BeanstalkdCommand command, string received, out BeanstalkdReply reply,
        out BeanstalkdProtocolException? error)
    {
        var bytes = System.Text.Encoding.ASCII.GetBytes(received);
        Assert.Equal(BeanstalkdFrameStatus.Complete, BeanstalkdReplyFrame.TryRead(bytes, out var frame, out var length));
        Assert.Equal(bytes.Length, length);
        return BeanstalkdReplyParser.Parse(command, frame, Tube, "test:1", out reply, out error);
    }
}
