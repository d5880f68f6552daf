namespace Beanstalkd.Client;

/// <summary>
/// No reply: the client could not connect, the connection was lost, or the reply did not come
/// within <see cref="BeanstalkdClientOptions.Timeout"/>. The outcome of the call is unknown — a
/// put may have inserted its job, a delete may have deleted — so a caller that retries must
/// tolerate doing it twice. The inner exception keeps the socket's detail for the log.
/// </summary>
public sealed class BeanstalkdUnavailableException(string endpoint, string message, Exception? inner = null)
    : BeanstalkdException(endpoint, message, inner);
