using System.Net.Sockets;
using IntegrationService.Storage.Nats;
using IntegrationService.Storage.RabbitMq;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// What the brokers' clients throw that is the backend's failure (503 with Retry-After), not a bug
/// (500). Found by the crash test under load: with RabbitMQ stopped, the client cancelled its own
/// Channel.OpenAsync (a TaskCanceledException, the call's deadline not yet reached) and two writes
/// were answered 500.
/// </summary>
public sealed class BrokerFailureClassTests
{
    public static TheoryData<Exception> BackendFailures() => new()
    {
        new TaskCanceledException("A task was canceled."),
        new OperationCanceledException(),
        new TimeoutException(),
        new IOException("Connection reset by peer"),
        new SocketException((int)SocketError.ConnectionRefused),
    };

    [Theory]
    [MemberData(nameof(BackendFailures))]
    public void ACancellationOrNetworkFailureInsideACallIsTheBrokersFailure(Exception e)
    {
        Assert.True(RabbitMqConnection.IsUnavailable(e));
        Assert.True(NatsJetStreamQueue.IsUnavailable(e));
    }

    [Fact]
    public void OurOwnBugsAreNotHiddenAsAnOutage()
    {
        Assert.False(RabbitMqConnection.IsUnavailable(new InvalidOperationException("a bug")));
        Assert.False(NatsJetStreamQueue.IsUnavailable(new NullReferenceException()));
    }
}
