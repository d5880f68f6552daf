namespace IntegrationService.Storage.RabbitMq;

/// <summary>
/// One delivery taken on the leases' channel: the channel's life it came in (its delivery tags are
/// that life's own) and its tag there.
/// </summary>
internal sealed record RabbitMqDelivery(RabbitMqLeaseChannel.Life Channel, ulong Tag);
