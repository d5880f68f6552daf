namespace IntegrationService.Queues;

/// <summary>
/// How long a broker holds a delivery for the service before it hands the message out again
/// (JetStream's ack wait, a beanstalkd job's time-to-run), counted from when it was taken or last
/// renewed, and how to renew it (an in-progress ack, a touch): true when renewed, false when the
/// broker no longer holds it for the service.
/// </summary>
public sealed record LeaseHold<TDelivery>(TimeSpan Hold, Func<TDelivery, Task<bool>> RenewAsync);
