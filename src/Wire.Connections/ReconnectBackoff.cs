namespace Wire.Connections;

/// <summary>
/// Pauses between reconnection attempts: <c>first × 2^n</c> for the n-th failure in a row, capped at
/// <c>max</c>, each scaled by a random factor in [0.8, 1.2] (and capped again) so that many clients
/// cut off together do not all return in the same instant. <see cref="Reset"/> after a successful connect.
/// </summary>
public sealed class ReconnectBackoff(TimeSpan first, TimeSpan max, Random random)
{
    private const double Jitter = 0.2;
    private int _failures;

    public TimeSpan Next()
    {
        // Doubling stops once the cap is reached, so the exponent never overflows.
        var nominal = Math.Min(max.TotalMilliseconds, first.TotalMilliseconds * Math.Pow(2, _failures));
        if (nominal < max.TotalMilliseconds) _failures++;
        var jittered = nominal * (1 - Jitter + 2 * Jitter * random.NextDouble());
        return TimeSpan.FromMilliseconds(Math.Min(max.TotalMilliseconds, jittered));
    }

    public void Reset() => _failures = 0;
}
