using System.Collections.Concurrent;
using IntegrationService.Queues;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// <see cref="LeaseBook{TMessage, TDelivery}"/> on a clock the test moves: a lease ends once, by
/// whoever claims it first; an expired receipt is refused at its deadline, before any sweep; the sweep
/// gives each expired delivery back exactly once; a newer delivery of a message ends the older lease;
/// a lease longer than the broker's hold is renewed, and is over once its hold lapses.
/// </summary>
public sealed class LeaseBookTests : IAsyncLifetime
{
    private static readonly TimeSpan Second = TimeSpan.FromSeconds(1);

    private readonly InterleavingClock _clock = new();
    private readonly ConcurrentQueue<string> _givenBack = new();
    private readonly ConcurrentQueue<string> _renewed = new();
    private LeaseBook<long, string> _book = null!;

    public Task InitializeAsync()
    {
        _book = Book(hold: null);
        return Task.CompletedTask;
    }

    public async Task DisposeAsync() => await _book.DisposeAsync();

    private LeaseBook<long, string> Book(LeaseHold<string>? hold, Func<string, Task>? giveBack = null) =>
        new(giveBack ?? (delivery =>
        {
            _givenBack.Enqueue(delivery);
            return Task.CompletedTask;
        }), hold, _clock, NullLogger.Instance);

    private string Lease(long message, string delivery, TimeSpan lease) => _book.Add(message, delivery, lease, _clock.GetTimestamp());

    [Fact]
    public async Task AHeldLeaseEndsOnceAndIsNeverGivenBack()
    {
        var receipt = Lease(1, "d1", 30 * Second);

        Assert.True(_book.TryEnd(receipt, out var delivery));
        Assert.Equal("d1", delivery);
        Assert.False(_book.TryEnd(receipt, out _));

        _clock.Advance(60 * Second);
        await _book.SweepAsync();
        Assert.Empty(_givenBack);
        Assert.Equal(0, _book.Count);
    }

    [Fact]
    public async Task AnExpiredReceiptIsRefusedAtItsDeadlineBeforeAnySweepAndTheSweepGivesItBackOnce()
    {
        var receipt = Lease(1, "d1", Second);
        _clock.Advance(Second - TimeSpan.FromMilliseconds(1));
        await _book.SweepAsync();
        Assert.Empty(_givenBack);

        _clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.False(_book.TryEnd(receipt, out _)); // not yet given back, and refused all the same
        Assert.Empty(_givenBack);

        await Task.WhenAll(_book.SweepAsync(), _book.SweepAsync());
        await _book.SweepAsync();
        Assert.Equal(["d1"], _givenBack);
        Assert.False(_book.TryEnd(receipt, out _));
        Assert.Equal(0, _book.Count);
    }

    [Fact]
    public void ReceiptsAreWellFormedAndNeverRepeated()
    {
        var receipts = Enumerable.Range(0, 1000).Select(i => Lease(i, $"d{i}", Second)).ToList();

        Assert.All(receipts, receipt => Assert.True(QueueLease.IsWellFormed(receipt), receipt));
        Assert.Equal(receipts.Count, receipts.Distinct().Count());
    }

    [Fact]
    public void AnUnknownReceiptIsRefused()
    {
        Lease(1, "d1", Second);

        Assert.False(_book.TryEnd("00000000000000000000000000000000", out _));
    }

    /// <summary>
    /// Readers end leases while the clock passes their deadline and the sweep runs: every lease is
    /// either ended by its reader or given back by the sweep, never both, never neither.
    /// </summary>
    [Fact]
    public async Task ARacingEndAndExpiryNeverBothWin()
    {
        for (var round = 0; round < 20; round++)
        {
            var receipts = Enumerable.Range(0, 500).Select(i => (Delivery: $"r{round}-{i}", Receipt: Lease(round * 1000 + i, $"r{round}-{i}", Second))).ToList();
            var ended = new ConcurrentQueue<string>();
            using var go = new ManualResetEventSlim();

            var readers = Enumerable.Range(0, 2).Select(part => Task.Run(() =>
            {
                go.Wait();
                foreach (var (_, receipt) in receipts.Where((_, i) => i % 2 == part))
                {
                    if (_book.TryEnd(receipt, out var delivery)) ended.Enqueue(delivery);
                }
            })).ToList();
            var expiry = Task.Run(async () =>
            {
                go.Wait();
                _clock.Advance(Second);
                await _book.SweepAsync();
            });
            go.Set();
            await Task.WhenAll(readers.Append(expiry));
            await _book.SweepAsync();

            var givenBack = _givenBack.Where(d => d.StartsWith($"r{round}-", StringComparison.Ordinal)).ToList();
            Assert.Empty(ended.Intersect(givenBack));
            Assert.Equal(receipts.Select(r => r.Delivery).Order(), ended.Concat(givenBack).Order());
        }
    }

    /// <summary>The interleaving the race above may miss: the reader read the clock just before the deadline, then the sweep claimed the lease.</summary>
    [Fact]
    public void AnEndThatReadTheClockJustBeforeTheDeadlineLosesToTheSweepThatClaimedTheLeaseMeanwhile()
    {
        var receipt = Lease(1, "d1", Second);
        _clock.Advance(Second - TimeSpan.FromMilliseconds(1));
        _clock.AfterNextRead = () =>
        {
            _clock.Advance(TimeSpan.FromMilliseconds(1));
            return _book.SweepAsync();
        };

        Assert.False(_book.TryEnd(receipt, out _));
        Assert.Equal(["d1"], _givenBack);
    }

    [Fact]
    public async Task TwoReadersEndingTheSameLeasesAtOnceEndEachOnce()
    {
        for (var round = 0; round < 10; round++)
        {
            var receipts = Enumerable.Range(0, 200).Select(i => Lease(round * 1000 + i, $"d{i}", 30 * Second)).ToList();
            var wins = new ConcurrentDictionary<string, int>();
            using var together = new Barrier(2); // both readers at the same receipt at the same moment
            var readers = Enumerable.Range(0, 2).Select(reader => Task.Run(() =>
            {
                foreach (var receipt in receipts)
                {
                    together.SignalAndWait();
                    if (_book.TryEnd(receipt, out _)) wins.AddOrUpdate(receipt, 1, (_, n) => n + 1);
                }
            })).ToList();
            await Task.WhenAll(readers);

            Assert.Equal(receipts.Count, wins.Count);
            Assert.All(wins.Values, n => Assert.Equal(1, n));
        }
    }

    [Fact]
    public async Task ANewerDeliveryOfTheSameMessageEndsTheOlderLeaseWithoutGivingItBack()
    {
        var older = Lease(7, "first delivery", 30 * Second);
        Lease(7, "second delivery", 30 * Second);

        Assert.False(_book.TryEnd(older, out _));
        _clock.Advance(60 * Second);
        await _book.SweepAsync();
        Assert.Equal(["second delivery"], _givenBack); // the newer one expired; the older was the broker's already
    }

    [Fact]
    public async Task AnEndedOlderLeaseDoesNotEndTheNewerOne()
    {
        var older = Lease(7, "first delivery", 30 * Second);
        Assert.True(_book.TryEnd(older, out _));
        var newer = Lease(7, "second delivery", 30 * Second);

        Assert.False(_book.TryEnd(older, out _));
        Assert.True(_book.TryEnd(newer, out var delivery));
        Assert.Equal("second delivery", delivery);
        await _book.SweepAsync();
        Assert.Empty(_givenBack);
    }

    [Fact]
    public async Task ALeaseLongerThanTheBrokersHoldIsRenewedBeforeTheHoldRunsOutAndAShortOneIsNot()
    {
        await _book.DisposeAsync();
        _book = Book(new LeaseHold<string>(30 * Second, delivery =>
        {
            _renewed.Enqueue(delivery);
            return Task.FromResult(true);
        }));
        var longLease = Lease(1, "long", TimeSpan.FromMinutes(5));
        Lease(2, "short", 20 * Second);

        for (var elapsed = 0; elapsed < 120; elapsed++)
        {
            _clock.Advance(Second);
            await _book.SweepAsync();
        }

        // Every 10 s (a third of the hold) for two minutes, each renewal well before the hold's 30 s.
        Assert.Equal(12, _renewed.Count);
        Assert.All(_renewed, delivery => Assert.Equal("long", delivery));
        Assert.Equal(["short"], _givenBack);
        Assert.True(_book.TryEnd(longLease, out _));
    }

    [Fact]
    public async Task ALeaseWhoseRenewalsFailIsOverOnceTheHoldLapsesAndIsGivenBackOnce()
    {
        await _book.DisposeAsync();
        _book = Book(new LeaseHold<string>(30 * Second, _ => throw new TimeoutException("no answer")));
        var receipt = Lease(1, "d1", TimeSpan.FromMinutes(5));

        for (var elapsed = 0; elapsed < 29; elapsed++)
        {
            _clock.Advance(Second);
            await _book.SweepAsync();
        }
        Assert.Empty(_givenBack);

        _clock.Advance(Second);
        Assert.False(_book.TryEnd(receipt, out _)); // the broker may have handed it out again
        await _book.SweepAsync();
        await _book.SweepAsync();
        Assert.Equal(["d1"], _givenBack);
    }

    [Fact]
    public async Task ALeaseTheBrokerNoLongerHoldsIsRefusedFromTheRenewalThatSaysSo()
    {
        await _book.DisposeAsync();
        _book = Book(new LeaseHold<string>(30 * Second, _ => Task.FromResult(false)));
        var receipt = Lease(1, "d1", TimeSpan.FromMinutes(5));

        _clock.Advance(10 * Second);
        await _book.SweepAsync();

        Assert.False(_book.TryEnd(receipt, out _));
    }

    [Fact]
    public async Task AGiveBackThatFailsDoesNotStopTheOthersAndIsNotRepeated()
    {
        await _book.DisposeAsync();
        var calls = new ConcurrentQueue<string>();
        _book = Book(null, delivery =>
        {
            calls.Enqueue(delivery);
            return delivery == "bad" ? throw new IOException("connection lost") : Task.CompletedTask;
        });
        Lease(1, "bad", Second);
        Lease(2, "good", Second);

        _clock.Advance(Second);
        await _book.SweepAsync();
        await _book.SweepAsync();

        Assert.Equal(["bad", "good"], calls.Order());
    }

    [Fact]
    public async Task TheLoopGivesBackAnExpiredLeaseByItselfUntilTheBookIsDisposed()
    {
        await _book.DisposeAsync();
        var givenBack = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        _book = Book(null, delivery =>
        {
            givenBack.TrySetResult(delivery);
            return Task.CompletedTask;
        });
        _book.Start();
        Lease(1, "d1", Second);

        // The loop's timer runs on the test's clock: it ticks as the clock passes each 100 ms.
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        while (!givenBack.Task.IsCompleted && DateTime.UtcNow < deadline)
        {
            _clock.Advance(LeaseBook<long, string>.SweepInterval);
            await Task.Delay(5);
        }
        Assert.Equal("d1", await givenBack.Task.WaitAsync(TimeSpan.FromSeconds(1)));

        await _book.DisposeAsync();
        Assert.Throws<ObjectDisposedException>(() => Lease(2, "d2", Second));
    }

    /// <summary>
    /// The test's clock, which can run something (the sweep, after moving on) right after it is next
    /// read: the interleaving of a reader that read the time and was then overtaken.
    /// </summary>
    private sealed class InterleavingClock : FakeTimeProvider
    {
        public Func<Task>? AfterNextRead;

        public override long GetTimestamp()
        {
            var now = base.GetTimestamp();
            if (Interlocked.Exchange(ref AfterNextRead, null) is { } then) then().GetAwaiter().GetResult();
            return now;
        }
    }
}
