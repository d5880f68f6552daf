using System.Globalization;

namespace IntegrationService.Queues;

/// <summary>A message taken for a lease: its id, its JSON document as stored, and the receipt that acknowledges it.</summary>
public sealed record LeasedMessage(long Id, ReadOnlyMemory<byte> Body, string Receipt);

/// <summary>
/// The leased read's rules, the same on every queue: a lease lasts from <see cref="Min"/> to
/// <see cref="Max"/> (<see cref="Default"/> when the request names none); a receipt is an opaque
/// string of at most <see cref="MaxReceiptLength"/> URL-safe characters.
/// </summary>
public static class QueueLease
{
    public static readonly TimeSpan Min = TimeSpan.FromSeconds(1);

    /// <summary>
    /// The longest lease. Below RabbitMQ's delivery acknowledgement timeout (30 minutes by default),
    /// past which the broker closes a channel that holds an unacknowledged delivery.
    /// </summary>
    public static readonly TimeSpan Max = TimeSpan.FromMinutes(15);

    /// <summary>As SQS's default visibility timeout.</summary>
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(30);

    public const int MaxReceiptLength = 128;

    /// <summary>
    /// Parses <c>?lease=</c>: a whole number with a unit (<c>500ms</c>, <c>30s</c>, <c>2m</c>) or a
    /// bare number of seconds; null or empty is <see cref="Default"/>. Outside [<see cref="Min"/>,
    /// <see cref="Max"/>] is an error, which <paramref name="error"/> explains.
    /// </summary>
    public static bool TryParse(string? text, out TimeSpan lease, out string? error)
    {
        lease = Default;
        error = null;
        if (string.IsNullOrEmpty(text)) return true;
        var (digits, unit) = text.EndsWith("ms", StringComparison.Ordinal) ? (text[..^2], 1L)
            : text.EndsWith('s') ? (text[..^1], 1000L)
            : text.EndsWith('m') ? (text[..^1], 60_000L)
            : (text, 1000L);
        if (!long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out var count) || count > long.MaxValue / unit)
        {
            error = $"'{text}' is not a lease: give a whole number of seconds, or one with a unit (500ms, 30s, 2m).";
            return false;
        }
        lease = TimeSpan.FromMilliseconds(count * unit);
        if (lease < Min || lease > Max)
        {
            error = $"A lease lasts from {Min.TotalSeconds:0} s to {Max.TotalMinutes:0} minutes; {text} is outside.";
            return false;
        }
        return true;
    }

    /// <summary>A receipt the API accepts at all (a store may still not know it): short, URL-safe.</summary>
    public static bool IsWellFormed(string receipt) =>
        receipt.Length is > 0 and <= MaxReceiptLength
        && receipt.AsSpan().IndexOfAnyExcept("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_.") < 0;

    /// <summary>
    /// A receipt for a store that keeps the lease beside the message: <c>id.token</c>, the token a
    /// random number below 2^53 (exact as a double, for Tarantool's Lua) that the store checks.
    /// </summary>
    public static (long Token, Func<long, string> Receipt) NewIdToken()
    {
        var token = Random.Shared.NextInt64(1, 1L << 53);
        return (token, id => string.Create(CultureInfo.InvariantCulture, $"{id}.{token}"));
    }

    /// <summary>Splits an <c>id.token</c> receipt; false for anything else.</summary>
    public static bool TryParseIdToken(string receipt, out long id, out long token)
    {
        token = 0;
        var dot = receipt.IndexOf('.');
        return long.TryParse(receipt.AsSpan(0, Math.Max(dot, 0)), NumberStyles.None, CultureInfo.InvariantCulture, out id) & dot > 0
            && long.TryParse(receipt.AsSpan(dot + 1), NumberStyles.None, CultureInfo.InvariantCulture, out token);
    }

    /// <summary>A receipt nobody can guess or reuse across leases: 128 random bits, hex.</summary>
    public static string NewToken() => Convert.ToHexStringLower(Guid.NewGuid().ToByteArray());
}
