using Crash;

namespace Crash.Tests;

public sealed class CrashVerifierTests
{
    private static WriteAttempt Ack(string value) => new(value, WriteOutcome.Acked);
    private static WriteAttempt Refused(string value) => new(value, WriteOutcome.Failed);
    private static WriteAttempt InDoubt(string value) => new(value, WriteOutcome.InDoubt);

    private static KeyVerdict Classify(ReadValue read, string? before, params WriteAttempt[] writes) =>
        CrashVerifier.Classify(writes, read, before) ?? throw new Xunit.Sdk.XunitException("expected a verdict");

    private static Verdict VerdictOf(ReadValue read, params WriteAttempt[] writes) => Classify(read, null, writes).Verdict;

    [Fact]
    public void AKeyNeverAcknowledgedIsNotCounted()
    {
        Assert.Null(CrashVerifier.Classify([], ReadValue.Missing));
        Assert.Null(CrashVerifier.Classify([InDoubt("a"), Refused("b")], ReadValue.Of("a")));
        Assert.Null(CrashVerifier.Classify([Refused("a")], ReadValue.Unreadable));
    }

    [Fact]
    public void TheLastAcknowledgedValueIsOk()
    {
        var verdict = Classify(ReadValue.Of("b"), null, Ack("a"), Ack("b"));
        Assert.Equal(Verdict.Ok, verdict.Verdict);
        Assert.Equal("b", verdict.Expected);
        Assert.Equal("b", verdict.Actual);
        Assert.False(verdict.FromInDoubtWrite);
    }

    [Fact]
    public void RefusedOrDoubtfulWritesBeforeTheLastAckDoNotMatterWhenItsValueIsThere()
    {
        Assert.Equal(Verdict.Ok, VerdictOf(ReadValue.Of("c"), Ack("a"), Refused("b"), InDoubt("x"), Ack("c")));
        Assert.Equal(Verdict.Ok, VerdictOf(ReadValue.Of("c"), InDoubt("a"), Ack("c")));
    }

    [Fact]
    public void AValueOfADoubtfulWriteAfterTheLastAckIsOk()
    {
        var verdict = Classify(ReadValue.Of("c"), null, Ack("a"), InDoubt("b"), InDoubt("c"));
        Assert.Equal(Verdict.Ok, verdict.Verdict);
        Assert.True(verdict.FromInDoubtWrite);
        Assert.Equal("a", verdict.Expected);
    }

    [Fact]
    public void TheLastAckStillOkWhenALaterDoubtfulWriteWasNotApplied()
    {
        var verdict = Classify(ReadValue.Of("a"), null, Ack("a"), InDoubt("b"));
        Assert.Equal(Verdict.Ok, verdict.Verdict);
        Assert.False(verdict.FromInDoubtWrite);
    }

    [Fact]
    public void AValueOfARefusedWriteAfterTheLastAckIsChanged()
    {
        var verdict = Classify(ReadValue.Of("b"), null, Ack("a"), Refused("b"));
        Assert.Equal(Verdict.Changed, verdict.Verdict);
        Assert.Contains("refused", verdict.Reason);
    }

    [Fact]
    public void AMissingKeyThatWasAcknowledgedIsLost()
    {
        var verdict = Classify(ReadValue.Missing, null, Ack("a"));
        Assert.Equal(Verdict.Lost, verdict.Verdict);
        Assert.Equal("(missing)", verdict.Actual);
        Assert.Equal(Verdict.Lost, VerdictOf(ReadValue.Missing, Ack("a"), InDoubt("b")));
        Assert.Equal(Verdict.Lost, VerdictOf(ReadValue.Missing, Ack("a"), Ack("b")));
    }

    [Fact]
    public void AnEmptySetIsLostOnlyWhenTheLastAckWasNotEmpty()
    {
        var verdict = Classify(ReadValue.Of(ReadValue.Empty), null, Ack("1,2"));
        Assert.Equal(Verdict.Lost, verdict.Verdict);
        Assert.Equal("(empty)", verdict.Actual);
        Assert.Equal(Verdict.Ok, VerdictOf(ReadValue.Of(ReadValue.Empty), Ack("1,2"), Ack(ReadValue.Empty)));
        // An empty set written after the last ack, in doubt, may have been applied.
        Assert.Equal(Verdict.Ok, VerdictOf(ReadValue.Of(ReadValue.Empty), Ack("1,2"), InDoubt(ReadValue.Empty)));
    }

    [Fact]
    public void TheValueFromBeforeTheRunIsLost()
    {
        var verdict = Classify(ReadValue.Of("7,8,9"), before: "7,8,9", Ack("1"), Ack("2"));
        Assert.Equal(Verdict.Lost, verdict.Verdict);
        Assert.Contains("before the run", verdict.Reason);
        // Without the pre-run value it is a value never written.
        Assert.Equal(Verdict.Changed, Classify(ReadValue.Of("7,8,9"), before: null, Ack("1"), Ack("2")).Verdict);
        Assert.Equal(Verdict.Changed, Classify(ReadValue.Of("7,8,9"), before: "6", Ack("1"), Ack("2")).Verdict);
    }

    [Fact]
    public void AnEarlierAcknowledgedValueIsStale()
    {
        var verdict = Classify(ReadValue.Of("a"), null, Ack("a"), Ack("b"), Ack("c"));
        Assert.Equal(Verdict.Stale, verdict.Verdict);
        Assert.Equal("c", verdict.Expected);
        Assert.Equal("a", verdict.Actual);
        Assert.Equal(Verdict.Stale, VerdictOf(ReadValue.Of("b"), Ack("a"), Ack("b"), Ack("c")));
        // Doubtful writes after the last ack do not excuse an older acknowledged value.
        Assert.Equal(Verdict.Stale, VerdictOf(ReadValue.Of("a"), Ack("a"), Ack("b"), InDoubt("c")));
    }

    [Fact]
    public void ADoubtfulWriteLandingAfterALaterAcknowledgedOneIsStale()
    {
        var verdict = Classify(ReadValue.Of("b"), null, Ack("a"), InDoubt("b"), Ack("c"));
        Assert.Equal(Verdict.Stale, verdict.Verdict);
        Assert.Contains("in doubt", verdict.Reason);
        Assert.False(verdict.FromInDoubtWrite);
    }

    [Fact]
    public void ARefusedWriteBeforeTheLastAckShowingUpIsChanged() =>
        Assert.Equal(Verdict.Changed, VerdictOf(ReadValue.Of("b"), Ack("a"), Refused("b"), Ack("c")));

    [Fact]
    public void AValueNeverWrittenIsChanged()
    {
        var verdict = Classify(ReadValue.Of("zzz"), null, Ack("a"), InDoubt("b"));
        Assert.Equal(Verdict.Changed, verdict.Verdict);
        Assert.Equal("a", verdict.Expected);
        Assert.Equal("zzz", verdict.Actual);
    }

    [Fact]
    public void AKeyThatCouldNotBeReadIsUnverified()
    {
        var verdict = Classify(ReadValue.Unreadable, null, Ack("a"));
        Assert.Equal(Verdict.Unverified, verdict.Verdict);
        Assert.Equal("(unreadable)", verdict.Actual);
    }

    [Fact]
    public void ALostKeyNamesItsFirstAcknowledgementAndAStaleOneTheFirstAcknowledgementAfterTheValueFound()
    {
        WriteAttempt AckAt(string value, double s) => new(value, WriteOutcome.Acked, s);
        Assert.Equal(1.5, Classify(ReadValue.Missing, null, InDoubt("x"), AckAt("a", 1.5), AckAt("b", 4)).LostAckS);
        Assert.Equal(4, Classify(ReadValue.Of("a"), null, AckAt("a", 1.5), Refused("r"), AckAt("b", 4), AckAt("c", 6)).LostAckS);
        Assert.Equal(6, Classify(ReadValue.Of("x"), null, AckAt("a", 1.5), InDoubt("x"), AckAt("c", 6)).LostAckS);
        Assert.Null(Classify(ReadValue.Of("c"), null, AckAt("a", 1.5), AckAt("c", 6)).LostAckS);
    }

    [Fact]
    public void TheLastAckWinsOverTheValueFromBeforeTheRun() =>
        Assert.Equal(Verdict.Ok, Classify(ReadValue.Of("5"), before: "5", Ack("1"), Ack("5")).Verdict);
}
