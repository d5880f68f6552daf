using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Crash.Queue;

/// <summary>
/// The leased read of <c>--kind queue-leased</c>: <c>POST /read/{queue}?lease=</c>, then
/// <c>POST /ack/{queue}/{receipt}</c> once the message is logged. A message whose lease ends
/// unacknowledged (its reader's answer lost, the service killed) is delivered again, so the
/// drain waits out a lease (and a broker's ack wait while messages are missing) before it ends.
/// </summary>
internal sealed class LeasedReads(string url, string storage)
{
    /// <summary>Long enough for a consumer's ack, short enough that a lost lease comes back within the drain.</summary>
    public static readonly TimeSpan Lease = TimeSpan.FromSeconds(5);

    /// <summary>A drain ends after 204s for a lease and the stores' reapers (1 s at most) and some margin.</summary>
    public static readonly TimeSpan Quiet = Lease + TimeSpan.FromSeconds(3);

    private readonly string _queue = Uri.EscapeDataString(storage);

    public string LeaseUrl => string.Create(CultureInfo.InvariantCulture, $"{url}/read/{_queue}?lease={(int)Lease.TotalSeconds}s");

    public string AckUrl(string receipt) => $"{url}/ack/{_queue}/{Uri.EscapeDataString(receipt)}";

    /// <summary>The receipt of a lease's answer, or null if it has none.</summary>
    public static string? Receipt(byte[] answer)
    {
        try
        {
            return JsonNode.Parse(answer)?["receipt"] is JsonValue receipt && receipt.TryGetValue<string>(out var text) ? text : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
