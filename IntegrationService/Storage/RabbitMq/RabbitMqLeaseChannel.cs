using RabbitMQ.Client;

namespace IntegrationService.Storage.RabbitMq;

/// <summary>
/// The channel the leased reads take their deliveries on, kept open across calls: a delivery is
/// acknowledged or given back on the channel that received it, by that channel's delivery tag
/// (acking a tag the channel never gave closes it with PRECONDITION_FAILED). Calls take turns, one
/// at a time on the channel. When the channel or its connection closes, the broker requeues the
/// channel's unacknowledged deliveries: they are then no longer held (<see cref="Life.IsHeld"/>) and
/// are never acked, and later leases get a new channel — the client's automatic recovery would
/// reopen the same channel object, numbering deliveries anew, and silently drop an old tag's ack.
/// A call that fails closes the channel too (so its deliveries are requeued): it may still owe a
/// reply, a message that would otherwise stay unacknowledged on it.
/// </summary>
internal sealed class RabbitMqLeaseChannel(RabbitMqConnection connection) : IAsyncDisposable
{
    private readonly SemaphoreSlim _turn = new(1, 1);
    private Life? _current;

    /// <summary>basic.get without auto-ack: the delivery, its message-id property and its body; null when no message is ready.</summary>
    public Task<(RabbitMqDelivery Delivery, string? MessageId, byte[] Body)?> GetAsync() =>
        connection.RunOnOwnChannelAsync(deadline => InTurnAsync(deadline, async () =>
        {
            var life = await CurrentAsync(deadline);
            var got = await life.Channel.BasicGetAsync(connection.Queue, autoAck: false, deadline);
            return got is null ? default((RabbitMqDelivery, string?, byte[])?) : (new RabbitMqDelivery(life, got.DeliveryTag), got.BasicProperties.MessageId, got.Body.ToArray());
        }));

    /// <summary>basic.ack; false when the delivery's channel closed (the broker requeued it).</summary>
    public Task<bool> AckAsync(RabbitMqDelivery delivery) =>
        EndAsync(delivery, static (channel, tag, deadline) => channel.BasicAckAsync(tag, multiple: false, deadline));

    /// <summary>basic.nack with requeue; false when the delivery's channel closed (the broker requeued it already).</summary>
    public Task<bool> NackAsync(RabbitMqDelivery delivery) =>
        EndAsync(delivery, static (channel, tag, deadline) => channel.BasicNackAsync(tag, multiple: false, requeue: true, deadline));

    public ValueTask DisposeAsync()
    {
        Retire();
        return ValueTask.CompletedTask;
    }

    private Task<bool> EndAsync(RabbitMqDelivery delivery, Func<IChannel, ulong, CancellationToken, ValueTask> end) =>
        connection.RunOnOwnChannelAsync(deadline => InTurnAsync(deadline, async () =>
        {
            if (!delivery.Channel.IsHeld) return false;
            await end(delivery.Channel.Channel, delivery.Tag, deadline);
            return true;
        }));

    private async Task<T> InTurnAsync<T>(CancellationToken deadline, Func<Task<T>> call)
    {
        await _turn.WaitAsync(deadline);
        try
        {
            return await call();
        }
        catch
        {
            Retire();
            throw;
        }
        finally
        {
            _turn.Release();
        }
    }

    /// <summary>The channel in use, or a new one when it was lost.</summary>
    private async Task<Life> CurrentAsync(CancellationToken deadline)
    {
        if (_current is { IsHeld: true } current) return current;
        Retire();
        var life = new Life(await connection.OpenChannelAsync(deadline));
        life.Channel.ChannelShutdownAsync += (_, _) =>
        {
            life.Lose();
            return Task.CompletedTask;
        };
        return _current = life;
    }

    /// <summary>Stops using the current channel and closes it, which requeues its deliveries.</summary>
    private void Retire()
    {
        if (Interlocked.Exchange(ref _current, null) is not { } retired) return;
        retired.Lose();
        connection.Close(retired.Channel);
    }

    /// <summary>One channel's life as the leases' channel: its deliveries are held while it is open and was never closed.</summary>
    internal sealed class Life(IChannel channel)
    {
        private volatile bool _lost;

        public IChannel Channel { get; } = channel;

        public bool IsHeld => !_lost && Channel.IsOpen;

        public void Lose() => _lost = true;
    }
}
