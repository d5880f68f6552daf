using System.Net.Sockets;

namespace IntegrationService.Storage;

/// <summary>
/// What a broker call (RabbitMQ's, NATS's) throws that is the broker's failure — a 503 with
/// Retry-After — rather than a bug, which stays a 500: anything from the client library, the
/// network's errors, timeouts, and every cancellation. Not only the call's deadline cancels: the
/// request's own token is never passed to these calls, and a client cancels a call itself when its
/// connection goes (RabbitMQ's Channel.OpenAsync throws TaskCanceledException under a stopped broker).
/// </summary>
internal static class BrokerFailure
{
    public static bool Is(Exception e, string clientNamespace) =>
        e.GetType().Namespace?.StartsWith(clientNamespace, StringComparison.Ordinal) == true
        || e is IOException or SocketException or TimeoutException or OperationCanceledException;
}
