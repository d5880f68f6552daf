namespace Beanstalkd.Client;

/// <summary>
/// The base of the client's own failures, so a caller can catch them all; the two kinds below
/// say whether the server was heard (<see cref="BeanstalkdProtocolException"/>) or not
/// (<see cref="BeanstalkdUnavailableException"/>).
/// </summary>
public class BeanstalkdException(string endpoint, string message, Exception? inner = null)
    : Exception($"beanstalkd {endpoint}: {message}", inner)
{
    /// <summary>The server's "host:port".</summary>
    public string Endpoint { get; } = endpoint;

    /// <summary>The message without the endpoint, for wrapping into another message.</summary>
    internal string Detail { get; } = message;
}
