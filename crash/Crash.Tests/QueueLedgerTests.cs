using Crash.Queue;

namespace Crash.Tests;

public sealed class QueueLedgerTests
{
    private static (long, WriteOutcome)[] Writes(params WriteOutcome[] outcomes) => [.. outcomes.Select((o, i) => ((long)i, o))];

    private const WriteOutcome A = WriteOutcome.Acked;
    private const WriteOutcome D = WriteOutcome.InDoubt;
    private const WriteOutcome F = WriteOutcome.Failed;

    [Fact]
    public void EveryAcknowledgedMessageDeliveredOnceIsAClearLedger()
    {
        var ledger = QueueLedger.Of(Writes(A, A, A), [2, 0, 1], readsInDoubt: 0, foreign: 4);
        Assert.Equal((3L, 3L, 3L, 0L, 0L, 0L, 4L), (ledger.Acked, ledger.Delivered, ledger.Deliveries, ledger.Lost, ledger.Duplicated, ledger.Unexpected, ledger.Foreign));
    }

    [Fact]
    public void ADuplicatesFirstReadIsTheEarliestReadThatTookIt() =>
        // 7 taken at 12.5 s and again at 3 s (reads answered out of order), 9 at 20 s, 30 s and 31 s; 4 once.
        Assert.Equal([3.0, 20.0], QueueLedger.FirstReadsOfDuplicates([(7, 12.5), (4, 1), (9, 30), (7, 3), (9, 20), (9, 31)]));

    [Fact]
    public void AnAcknowledgedMessageNeverDeliveredIsLost()
    {
        var ledger = QueueLedger.Of(Writes(A, A, A, A), [0, 3], readsInDoubt: 1, foreign: 0);
        Assert.Equal(2, ledger.Lost);
        Assert.Equal([1L, 2L], ledger.LostExamples);
        Assert.Equal(1, ledger.ReadsInDoubt);
    }

    [Fact]
    public void AMessageDeliveredTwiceIsOneDuplicateWhateverItsWrite()
    {
        var ledger = QueueLedger.Of(Writes(A, A, D), [0, 1, 0, 0, 2, 2], readsInDoubt: 0, foreign: 0);
        Assert.Equal((2L, 3L, 6L), (ledger.Duplicated, ledger.Delivered, ledger.Deliveries));
        Assert.Equal([0L, 2L], ledger.DuplicatedExamples);
    }

    [Fact]
    public void AWriteInDoubtThatWasDeliveredIsCountedApartNotUnexpected()
    {
        var ledger = QueueLedger.Of(Writes(A, D, D, F), [0, 1], readsInDoubt: 0, foreign: 0);
        Assert.Equal((2L, 1L, 0L, 0L), (ledger.InDoubtWrites, ledger.InDoubtWritesDelivered, ledger.Unexpected, ledger.Lost));
        Assert.Equal(2, ledger.InDoubt);
    }

    [Fact]
    public void ARefusedWriteOrOneNeverSentThatIsDeliveredIsUnexpected()
    {
        var ledger = QueueLedger.Of(Writes(A, F), [0, 1, 99], readsInDoubt: 2, foreign: 0);
        Assert.Equal(2, ledger.Unexpected);
        Assert.Equal(2, ledger.InDoubt); // no write in doubt, two reads
    }

    [Fact]
    public void TheRunsOwnMessagesAreToldFromForeignOnes()
    {
        static byte[] Answer(string message) => System.Text.Encoding.UTF8.GetBytes($$"""{"queue":"q","action":"read","id":5,"read_message":{{message}}}""");
        Assert.Equal(12, QueueMessage.OwnSeq(Answer(System.Text.Encoding.UTF8.GetString(QueueMessage.Body("ab12", 12))), "ab12"));
        Assert.Null(QueueMessage.OwnSeq(Answer("""{"crash":"other","seq":12}"""), "ab12"));
        Assert.Null(QueueMessage.OwnSeq(Answer("""{"user":"x","title":"t"}"""), "ab12"));
        Assert.Null(QueueMessage.OwnSeq(Answer("\"just a string\""), "ab12"));
        Assert.Null(QueueMessage.OwnSeq("not json"u8.ToArray(), "ab12"));
    }

    [Fact]
    public void AMessageReadBeforeTheFaultIsNoLongerTheStoresToKeepAndALostOneIsAgedFromItsAcknowledgement()
    {
        // Acknowledged at 1, 2, 3 and 9 s; the fault at 8 s. Message 0 was read at 4 s, 1 at 8.5 s, 2 never, 3 at 10 s.
        var ages = QueueLedger.Ages([(0, 1.0), (1, 2.0), (2, 3.0), (3, 9.0)], [(0, 4.0), (1, 8.5), (3, 10.0), (1, 12.0)], faultS: 8);
        Assert.Equal([5000L], ages.LostMs);
        Assert.Equal(6000, ages.OldestHeldMs); // message 1: still on the queue at the fault
        Assert.Equal(5000, ages.OldestLostMs);
        Assert.Null(QueueLedger.Ages([(0, 1.0)], [(0, 2.0)], faultS: 8).OldestHeldMs);
    }

    [Theory]
    [InlineData(204, ReadOutcome.Empty)]
    [InlineData(503, ReadOutcome.InDoubt)]
    [InlineData(500, ReadOutcome.InDoubt)]
    [InlineData(400, ReadOutcome.Refused)]
    [InlineData(200, ReadOutcome.Foreign)]
    public void AReadsAnswerIsClassified(int status, ReadOutcome expected) =>
        Assert.Equal(expected, QueueReader.Classify(new HttpAnswer(status, """{"read_message":{"crash":"zz","seq":1}}"""u8.ToArray(), null), "ab12", out _));

    [Fact]
    public void AReadWithoutAnAnswerIsInDoubtAndAnOwnMessageNamesItsWrite()
    {
        Assert.Equal(ReadOutcome.InDoubt, QueueReader.Classify(HttpAnswer.TimedOut, "ab12", out _));
        Assert.Equal(ReadOutcome.InDoubt, QueueReader.Classify(HttpAnswer.ConnectionFailed, "ab12", out _));
        Assert.Equal(ReadOutcome.Own, QueueReader.Classify(new HttpAnswer(200, """{"read_message":{"crash":"ab12","seq":7}}"""u8.ToArray(), null), "ab12", out var seq));
        Assert.Equal(7, seq);
    }
}
