namespace Lab.Tools;

/// <summary>
/// siege's rc file for a matrix (siege reads it through SIEGERC; it is kept beside the results).
/// siege 4.0.7 caps <c>-c</c> at 255 without <c>limit</c>; <c>connection = close</c> is what the
/// configuration siege writes for a new user from Debian's template has, so these are the
/// original's commands as a user would run them; <c>chunked = true</c>, or siege reads a chunked
/// answer until the server closes the connection (its compiled default is false; Debian's
/// template sets true); no <c>delay</c> line, so siege's default applies (0 s in 4.0.7, see
/// <c>siege -C</c>).
/// </summary>
public static class SiegeRc
{
    public static string Text(int maxConcurrency, string connection) =>
        $"""
        # written by lab siege; siege reads it through SIEGERC
        verbose = false
        color = off
        quiet = false
        json_output = false
        show-logfile = false
        logging = false
        limit = {maxConcurrency + 100}
        protocol = HTTP/1.1
        connection = {connection}
        chunked = true
        parser = false
        cache = false

        """;
}
