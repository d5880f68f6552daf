namespace Beanstalkd.Client;

/// <summary>
/// Settings of one <see cref="BeanstalkdClient"/>. The client reads them once, in its constructor,
/// after <see cref="Validate"/>: changing them later does not change a client.
/// </summary>
public sealed class BeanstalkdClientOptions
{
    /// <summary>The longest tube name beanstalkd accepts.</summary>
    public const int MaxTubeNameLength = 200;

    /// <summary>Host name or address of the beanstalkd server.</summary>
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>beanstalkd's port (11300 is its default).</summary>
    public int Port { get; set; } = 11300;

    /// <summary>
    /// The one tube the client puts into (<c>use</c>), reserves from (<c>watch</c>, and
    /// <c>ignore default</c> when it is another tube) and counts (<c>stats-tube</c>).
    /// </summary>
    public string Tube { get; set; } = "default";

    /// <summary>
    /// How long one call may take from start to reply, connecting included. A call without a reply
    /// by then throws <see cref="BeanstalkdUnavailableException"/> and the connection is dropped:
    /// beanstalkd answers in order, so a reply that comes late would be taken for the next call's.
    /// </summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Bound on one connection attempt: the TCP connect plus <c>use</c>/<c>watch</c>/<c>ignore</c>.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Time-to-run of the jobs <see cref="BeanstalkdClient.PutAsync"/> puts, in whole seconds
    /// (rounded up): a reserved job not deleted within it is handed out again.
    /// </summary>
    public TimeSpan Ttr { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// The pause after a failed connection attempt during which calls fail at once instead of
    /// trying again, so a server that is down is not hammered by every call. It doubles with each
    /// further failure up to <see cref="MaxReconnectDelay"/> and starts over after a success.
    /// </summary>
    public TimeSpan ReconnectDelay { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>The longest pause between connection attempts (see <see cref="ReconnectDelay"/>).</summary>
    public TimeSpan MaxReconnectDelay { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Throws <see cref="ArgumentException"/> naming the first setting that is not usable.</summary>
    public void Validate()
    {
        if (string.IsNullOrWhiteSpace(Host)) throw new ArgumentException("Host is empty.", nameof(Host));
        if (Port is < 1 or > 65535) throw new ArgumentException($"Port {Port} is not between 1 and 65535.", nameof(Port));
        if (!IsValidTubeName(Tube))
        {
            throw new ArgumentException(
                $"Tube '{Tube}' is not a beanstalkd name: 1 to {MaxTubeNameLength} of A-Z a-z 0-9 - + / ; . $ _ ( ), not starting with '-'.",
                nameof(Tube));
        }
        RequirePositive(Timeout, nameof(Timeout));
        RequirePositive(ConnectTimeout, nameof(ConnectTimeout));
        RequirePositive(ReconnectDelay, nameof(ReconnectDelay));
        if (MaxReconnectDelay < ReconnectDelay) throw new ArgumentException("MaxReconnectDelay is shorter than ReconnectDelay.", nameof(MaxReconnectDelay));
        if (Ttr < TimeSpan.FromSeconds(1) || Ttr.TotalSeconds > uint.MaxValue)
        {
            throw new ArgumentException($"Ttr {Ttr} is not between 1 s and {uint.MaxValue} s.", nameof(Ttr));
        }
    }

    /// <summary>A snapshot, so that a client is not changed by later changes to these options.</summary>
    internal BeanstalkdClientOptions Copy() => (BeanstalkdClientOptions)MemberwiseClone();

    /// <summary>beanstalkd's rule for names (protocol.txt, "Name convention").</summary>
    public static bool IsValidTubeName(string? name)
    {
        if (string.IsNullOrEmpty(name) || name.Length > MaxTubeNameLength || name[0] == '-') return false;
        foreach (var c in name)
        {
            if (!(char.IsAsciiLetterOrDigit(c) || c is '-' or '+' or '/' or ';' or '.' or '$' or '_' or '(' or ')')) return false;
        }
        return true;
    }

    private static void RequirePositive(TimeSpan value, string name)
    {
        // Whole milliseconds, because deadlines are kept on Environment.TickCount64.
        if (value < TimeSpan.FromMilliseconds(1) || value.TotalMilliseconds > int.MaxValue)
        {
            throw new ArgumentException($"{name} {value} is not between 1 ms and {int.MaxValue} ms.", name);
        }
    }
}
