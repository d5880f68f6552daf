namespace IntegrationService.Storage.Beanstalkd.Client;

/// <summary>
/// The server answered, and the answer is an error (OUT_OF_MEMORY, INTERNAL_ERROR, BAD_FORMAT,
/// UNKNOWN_COMMAND, JOB_TOO_BIG, DRAINING, EXPECTED_CRLF, NOT_FOUND, …) or a reply the client cannot
/// parse. Unlike <see cref="BeanstalkdUnavailableException"/> the outcome is known: the command
/// did nothing. After an error word the connection stays in use; after an unparsable reply it is
/// dropped, because the replies that follow can no longer be matched to their calls.
/// </summary>
public sealed class BeanstalkdProtocolException(string endpoint, string reply, string message)
    : BeanstalkdException(endpoint, message)
{
    /// <summary>
    /// The server's word: the error name (e.g. "JOB_TOO_BIG", "NOT_FOUND"), or for a reply the
    /// client could not parse, that reply's first line (shortened, bytes outside printable ASCII
    /// shown as \xNN).
    /// </summary>
    public string Reply { get; } = reply;
}
