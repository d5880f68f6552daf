namespace Harness;

/// <summary>
/// The bench's log on stderr, <c>==> …</c> as script/bench always wrote, and the live status line
/// beside it: on a terminal a run's status is one line redrawn in place, which a log line first
/// clears so the two never mix.
/// </summary>
public static class ToolLog
{
    private static readonly Lock Gate = new();
    private static bool _statusShown;

    /// <summary>Whether stderr is a terminal, where a status line can be redrawn in place.</summary>
    public static bool Live { get; } = !Console.IsErrorRedirected && !Console.IsOutputRedirected;

    public static void Write(string message)
    {
        lock (Gate)
        {
            ClearStatus();
            Console.Error.WriteLine($"==> {message}");
        }
    }

    public static void Status(string line)
    {
        if (!Live) return;
        lock (Gate)
        {
            var width = Console.WindowWidth > 0 ? Console.WindowWidth - 1 : 120;
            Console.Error.Write("\r\u001b[K" + (line.Length > width ? line[..width] : line));
            _statusShown = true;
        }
    }

    public static void ClearStatus()
    {
        lock (Gate)
        {
            if (!_statusShown) return;
            Console.Error.Write("\r\u001b[K");
            _statusShown = false;
        }
    }
}
