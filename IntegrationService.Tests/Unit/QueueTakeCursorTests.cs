using IntegrationService.Storage.Postgres;

namespace IntegrationService.Tests.Unit;

public sealed class QueueTakeCursorTests
{
    [Fact]
    public void AfterATakeFromTheHeadTheCursorAsksForTheNextIds()
    {
        var cursor = new QueueTakeCursor();
        var asked = cursor.Next();
        cursor.Taken(asked, 1000); // 1 was missing: the head scan took 1000
        Assert.Equal(1001, cursor.Next());
        Assert.Equal(1002, cursor.Next());
    }

    [Fact]
    public void AnEmptyReadGivesItsIdBackSoTheNextMessageIsAskedForAndNotTheOneAfter()
    {
        var cursor = new QueueTakeCursor();
        cursor.Taken(cursor.Next(), 41);
        var empty = cursor.Next();
        Assert.Equal(42, empty);
        cursor.Taken(empty, null);
        Assert.Equal(42, cursor.Next());
    }

    [Fact]
    public void AHeadFarBehindTheCursorBringsItBackAndOneJustBehindDoesNot()
    {
        var cursor = new QueueTakeCursor();
        cursor.Taken(cursor.Next(), 100_000);
        cursor.Taken(cursor.Next(), 99_990); // a message passed over, taken late: the cursor stays
        Assert.Equal(100_002, cursor.Next());
        cursor.Taken(cursor.Next(), 7); // the cursor ran past the tail
        Assert.Equal(8, cursor.Next());
    }

    [Fact]
    public void EveryHeadScanEveryThReadScansFromTheHead()
    {
        var cursor = new QueueTakeCursor();
        var asked = Enumerable.Range(0, 3 * QueueTakeCursor.HeadScanEvery).Select(_ => cursor.Next()).ToList();
        Assert.Equal(3, asked.Count(a => a == QueueTakeCursor.HeadOnly));
        Assert.Equal(Enumerable.Range(1, asked.Count - 3).Select(i => (long)i), asked.Where(a => a != QueueTakeCursor.HeadOnly));
    }
}
