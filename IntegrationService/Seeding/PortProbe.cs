using System.Net.Sockets;

namespace IntegrationService.Seeding;

/// <summary>Whether something accepts TCP connections at <c>host:port</c> (within 2 s): a server that does not is "not running".</summary>
internal static class PortProbe
{
    public static async Task<bool> IsOpenAsync(string host, int port, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(2));
        using var client = new TcpClient();
        try
        {
            await client.ConnectAsync(host, port, timeout.Token);
            return true;
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>The endpoints of a StackExchange.Redis configuration without its options (a password among them stays out of the output).</summary>
    public static string Display(string configuration) =>
        string.Join(',', configuration.Split(',').Select(p => p.Trim()).Where(p => p.Length > 0 && !p.Contains('=')));

    /// <summary>The host and port of <c>host:port</c> (the first of a comma-separated list).</summary>
    public static (string Host, int Port) Split(string endpoint)
    {
        var first = endpoint.Split(',')[0].Trim();
        var colon = first.LastIndexOf(':');
        return (first[..colon], int.Parse(first[(colon + 1)..], System.Globalization.CultureInfo.InvariantCulture));
    }
}
