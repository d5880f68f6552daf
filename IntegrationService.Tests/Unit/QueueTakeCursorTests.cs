using IntegrationService.Storage.Postgres;
using Microsoft.Extensions.Time.Testing;

namespace IntegrationService.Tests.Unit;

public sealed class QueueTakeCursorTests
{
    private readonly FakeTimeProvider _time = new();

    [Fact]
    public void TakesScanFromJustPastTheHighestIdTakenAndNeverMoveBack()
    {
        var cursor = new QueueTakeCursor(_time);
        Assert.Equal(QueueTakeCursor.Head, cursor.Next()); // the first take looks from the head
        cursor.Taken(1064);
        Assert.Equal(1065, cursor.Next());
        cursor.Taken(900); // a straggler from a head scan, or a slower take that finished later
        Assert.Equal(1065, cursor.Next());
        cursor.Taken(2000);
        Assert.Equal(2001, cursor.Next());
    }

    [Fact]
    public void TheFloorIsTheCursorAsItWasAtLeastTheLagAgo()
    {
        var cursor = new QueueTakeCursor(_time);
        cursor.Next();
        cursor.Taken(99);
        Assert.Equal(QueueTakeCursor.Head, cursor.Floor); // no sample a lag old yet

        _time.Advance(QueueTakeCursor.FloorLag);
        Assert.Equal(QueueTakeCursor.Head, cursor.Floor); // the cursor, 100, is sampled now
        cursor.Taken(499);

        _time.Advance(QueueTakeCursor.FloorLag / 2);
        Assert.Equal(QueueTakeCursor.Head, cursor.Floor);
        _time.Advance(QueueTakeCursor.FloorLag / 2);
        Assert.Equal(100, cursor.Floor); // 100 is a lag old; 500 is sampled
        cursor.Taken(899);

        _time.Advance(QueueTakeCursor.FloorLag * 2); // a quiet spell: the floor only lags more
        Assert.Equal(500, cursor.Floor);
        Assert.Equal(900, cursor.Next());
    }

    [Fact]
    public void EveryThirtySecondTakeScansFromTheFloorForMessagesThatCommittedBehindTheCursor()
    {
        var cursor = new QueueTakeCursor(_time);
        cursor.Next(); // the head scan of the first take
        cursor.Taken(41);
        _time.Advance(QueueTakeCursor.FloorLag);
        Assert.Equal(QueueTakeCursor.Head, cursor.Floor); // samples 42
        cursor.Taken(99);
        _time.Advance(QueueTakeCursor.FloorLag);
        Assert.Equal(42, cursor.Floor);

        var from = Enumerable.Range(0, 3 * QueueTakeCursor.FloorScanEvery).Select(_ => cursor.Next()).ToList();
        Assert.Equal(3, from.Count(f => f == 42));
        Assert.All(from.Where(f => f != 42), f => Assert.Equal(100, f));
    }

    [Fact]
    public void OneTakePerIntervalScansFromTheHead()
    {
        var cursor = new QueueTakeCursor(_time);
        Assert.Equal(QueueTakeCursor.Head, cursor.Next());
        cursor.Taken(7);
        var step = QueueTakeCursor.HeadScanInterval / 10;
        var heads = 0;
        for (var i = 0; i < 30; i++) // three intervals
        {
            _time.Advance(step);
            if (cursor.Next() == QueueTakeCursor.Head) heads++;
        }
        Assert.Equal(3, heads);
    }
}
