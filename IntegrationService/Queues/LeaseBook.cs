using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;

namespace IntegrationService.Queues;

/// <summary>
/// The leases a broker's store holds where the broker keeps a delivery for as long as the service
/// holds it (a beanstalkd reservation, an unacknowledged RabbitMQ delivery, a JetStream message
/// awaiting its ack): receipt → delivery and deadline. The rules:
/// <list type="bullet">
/// <item>A lease ends once — acknowledged or given back by its reader (<see cref="TryEnd"/>), expired,
/// or superseded — whichever claims it first; the others find it gone.</item>
/// <item>From its deadline on, <see cref="TryEnd"/> refuses the receipt, even before the sweep (a loop
/// every <see cref="SweepInterval"/>, from <see cref="Start"/>) has given the delivery back; the sweep
/// gives each expired delivery back exactly once.</item>
/// <item>A newer delivery of the same message (the broker took the older back by itself: a lost
/// connection, an ack wait run out) ends the older lease without giving it back.</item>
/// <item>Where the broker holds a delivery only for a while (<see cref="LeaseHold{TDelivery}"/>), the
/// sweep renews a lease that outlasts the hold every third of it; a lease whose hold lapsed (renewals
/// failed, or the broker said it no longer holds it) is over: the broker may have handed it out again.</item>
/// </list>
/// The book is memory: if the service dies its leases die with it, and the broker's own rule applies.
/// </summary>
/// <typeparam name="TMessage">What identifies the message across deliveries (a job id, a stream sequence).</typeparam>
/// <typeparam name="TDelivery">What the store needs to acknowledge or give back one delivery.</typeparam>
public sealed class LeaseBook<TMessage, TDelivery> : IAsyncDisposable where TMessage : notnull
{
    public static readonly TimeSpan SweepInterval = TimeSpan.FromMilliseconds(100);

    private readonly ConcurrentDictionary<string, Lease> _byReceipt = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<TMessage, Lease> _byMessage = new();
    private readonly Func<TDelivery, Task> _giveBackAsync;
    private readonly LeaseHold<TDelivery>? _hold;
    private readonly long _holdTicks;
    private readonly long _renewEveryTicks;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly CancellationTokenSource _stopping = new();
    private Task _loop = Task.CompletedTask;

    /// <param name="giveBackAsync">Hands an expired delivery back to the broker (a nack, a release); its failures are logged, once a pass.</param>
    /// <param name="hold">The broker's hold on a delivery, when it has one (null: until the service lets go).</param>
    /// <param name="time">The clock of deadlines and of the sweep.</param>
    /// <param name="logger">Where a pass's failed give-backs and renewals are told.</param>
    public LeaseBook(Func<TDelivery, Task> giveBackAsync, LeaseHold<TDelivery>? hold, TimeProvider time, ILogger logger)
    {
        _giveBackAsync = giveBackAsync;
        _hold = hold;
        _time = time;
        _logger = logger;
        if (hold is not null)
        {
            _holdTicks = Ticks(hold.Hold);
            _renewEveryTicks = Ticks(hold.Hold / 3);
        }
    }

    /// <summary>Now on the book's clock: a store reads it before it asks the broker for a delivery, and passes it to <see cref="Add"/>.</summary>
    public long Now => _time.GetTimestamp();

    /// <summary>Leases held now (not yet ended, expired ones the sweep has not yet reached included).</summary>
    public int Count => _byReceipt.Count;

    /// <summary>Starts the sweep, which runs until the book is disposed.</summary>
    public void Start()
    {
        ObjectDisposedException.ThrowIf(_stopping.IsCancellationRequested, this);
        if (_loop.IsCompleted) _loop = Task.Run(LoopAsync);
    }

    /// <summary>
    /// Records a lease of <paramref name="delivery"/> for <paramref name="lease"/> from
    /// <paramref name="takenAt"/> (<see cref="Now"/> before the broker was asked, so the book never
    /// counts on more than the broker gives), and returns its receipt. An older lease of the same
    /// <paramref name="message"/> ends here, not given back: the broker took it back already.
    /// </summary>
    public string Add(TMessage message, TDelivery delivery, TimeSpan lease, long takenAt)
    {
        ObjectDisposedException.ThrowIf(_stopping.IsCancellationRequested, this);
        var entry = new Lease(message, delivery, QueueLease.NewToken(), takenAt + Ticks(lease),
            _hold is null ? long.MaxValue : takenAt + _holdTicks, takenAt);
        _byReceipt[entry.Receipt] = entry;
        while (true)
        {
            if (_byMessage.TryGetValue(message, out var older))
            {
                if (!_byMessage.TryUpdate(message, entry, older)) continue;
                if (older.TryClaim()) _byReceipt.TryRemove(older.Receipt, out _);
                break;
            }
            if (_byMessage.TryAdd(message, entry)) break;
        }
        return entry.Receipt;
    }

    /// <summary>
    /// Ends the lease <paramref name="receipt"/> names if it is still held: the caller then acknowledges
    /// or gives back <paramref name="delivery"/>. False when it names no lease held now — unknown, ended,
    /// superseded, or past its deadline or its hold (left to the sweep, which gives it back).
    /// </summary>
    public bool TryEnd(string receipt, [MaybeNullWhen(false)] out TDelivery delivery)
    {
        delivery = default;
        if (!_byReceipt.TryGetValue(receipt, out var lease) || lease.IsOver(Now) || !lease.TryClaim()) return false;
        Forget(lease);
        delivery = lease.Delivery;
        return true;
    }

    /// <summary>One pass of the sweep: gives back the leases that are over, renews those whose hold is due.</summary>
    internal async Task SweepAsync()
    {
        var now = Now;
        List<Task<Exception?>>? work = null;
        foreach (var (_, lease) in _byReceipt)
        {
            if (lease.IsOver(now))
            {
                if (!lease.TryClaim()) continue;
                Forget(lease);
                (work ??= []).Add(CallAsync(_giveBackAsync, lease.Delivery));
            }
            else if (_hold is not null && lease.Deadline > lease.HeldUntil && now - lease.RenewedAt >= _renewEveryTicks)
            {
                (work ??= []).Add(RenewAsync(lease, now));
            }
        }
        if (work is null) return;
        var failures = (await Task.WhenAll(work)).OfType<Exception>().ToList();
        if (failures.Count > 0)
        {
            // The broker still takes each back by itself: when the connection closes or its hold lapses.
            _logger.LogWarning(failures[0], "Leases: {Failed} of {Calls} give-backs or renewals failed", failures.Count, work.Count);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_stopping.IsCancellationRequested) return;
        await _stopping.CancelAsync();
        await _loop;
        _stopping.Dispose();
    }

    private async Task LoopAsync()
    {
        using var timer = new PeriodicTimer(SweepInterval, _time);
        try
        {
            while (await timer.WaitForNextTickAsync(_stopping.Token)) await SweepAsync();
        }
        catch (OperationCanceledException) when (_stopping.IsCancellationRequested)
        {
        }
    }

    private async Task<Exception?> RenewAsync(Lease lease, long startedAt)
    {
        if (lease.IsEnded) return null;
        Exception? failure = null;
        try
        {
            if (await _hold!.RenewAsync(lease.Delivery)) lease.Renewed(startedAt, startedAt + _holdTicks);
            else lease.Renewed(startedAt, long.MinValue); // no longer the service's: over at once
        }
        catch (Exception e)
        {
            failure = e; // tried again next pass, until the hold lapses
        }
        return failure;
    }

    private static async Task<Exception?> CallAsync(Func<TDelivery, Task> call, TDelivery delivery)
    {
        try
        {
            await call(delivery);
            return null;
        }
        catch (Exception e)
        {
            return e;
        }
    }

    private void Forget(Lease lease)
    {
        _byReceipt.TryRemove(lease.Receipt, out _);
        _byMessage.TryRemove(KeyValuePair.Create(lease.Message, lease));
    }

    private long Ticks(TimeSpan span) => (long)(span.TotalSeconds * _time.TimestampFrequency);

    /// <summary>One lease; times are <see cref="TimeProvider.GetTimestamp"/> values.</summary>
    private sealed class Lease(TMessage message, TDelivery delivery, string receipt, long deadline, long heldUntil, long takenAt)
    {
        private long _heldUntil = heldUntil;
        private long _renewedAt = takenAt;
        private int _ended;

        public TMessage Message { get; } = message;
        public TDelivery Delivery { get; } = delivery;
        public string Receipt { get; } = receipt;
        public long Deadline { get; } = deadline;
        public long HeldUntil => Volatile.Read(ref _heldUntil);
        public long RenewedAt => Volatile.Read(ref _renewedAt);
        public bool IsEnded => Volatile.Read(ref _ended) != 0;

        public bool IsOver(long now) => now >= Deadline || now >= HeldUntil;

        /// <summary>Whoever claims a lease first ends it: its reader, the sweep, or a newer delivery.</summary>
        public bool TryClaim() => Interlocked.Exchange(ref _ended, 1) == 0;

        public void Renewed(long at, long heldUntil)
        {
            Volatile.Write(ref _renewedAt, at);
            Volatile.Write(ref _heldUntil, heldUntil);
        }
    }
}
