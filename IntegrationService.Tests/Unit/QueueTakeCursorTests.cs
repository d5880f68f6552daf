using IntegrationService.Storage.Postgres;

namespace IntegrationService.Tests.Unit;

public sealed class QueueTakeCursorTests
{
    [Fact]
    public void TakesScanFromJustPastTheHighestIdTakenAndNeverMoveBack()
    {
        var cursor = new QueueTakeCursor();
        Assert.Equal(QueueTakeCursor.Head, cursor.Next());
        cursor.Taken(1064);
        Assert.Equal(1065, cursor.Next());
        cursor.Taken(900); // a straggler from a head scan, or a slower take that finished later
        Assert.Equal(1065, cursor.Next());
        cursor.Taken(2000);
        Assert.Equal(2001, cursor.Next());
    }

    [Fact]
    public void EveryThirtySecondTakeScansFromTheHeadForMessagesThatCommittedBehindTheCursor()
    {
        var cursor = new QueueTakeCursor();
        cursor.Taken(41);
        var from = Enumerable.Range(0, 3 * QueueTakeCursor.HeadScanEvery).Select(_ => cursor.Next()).ToList();
        Assert.Equal(3, from.Count(f => f == QueueTakeCursor.Head));
        Assert.All(from.Where(f => f != QueueTakeCursor.Head), f => Assert.Equal(42, f));
    }
}
