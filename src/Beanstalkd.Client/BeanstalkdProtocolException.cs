namespace Beanstalkd.Client;

/// <summary>
/// The server answered, with an error (OUT_OF_MEMORY, INTERNAL_ERROR, BAD_FORMAT, UNKNOWN_COMMAND,
/// JOB_TOO_BIG, DRAINING, EXPECTED_CRLF, NOT_FOUND, …) or with a reply the client cannot parse.
/// After an error word the command did not take effect — but for put's <c>BURIED &lt;id&gt;</c>:
/// the job was stored, buried, for lack of memory — and the connection stays in use. After an
/// unparsable reply the outcome is unknown and the connection is dropped, because the replies
/// that follow can no longer be matched to their calls.
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
