using Tank.Ammo;

namespace Tank.Runner;

/// <summary>Hands out ammo in file order, looping <c>loop</c> times (−1 = endlessly), up to <c>ammo_limit</c>.</summary>
public sealed class AmmoFeed(IReadOnlyList<AmmoRequest> requests, long loop, long limit)
{
    private long _next = -1;
    private int _exhausted;

    /// <summary>True once a caller has been told there is no more ammo.</summary>
    public bool Exhausted => Volatile.Read(ref _exhausted) == 1;

    /// <summary>The next request, or null when the ammo is used up. Thread-safe.</summary>
    public AmmoRequest? Next()
    {
        var index = Interlocked.Increment(ref _next);
        if ((limit >= 0 && index >= limit) || (loop >= 0 && index >= Math.Max(1, loop) * (long)requests.Count))
        {
            Volatile.Write(ref _exhausted, 1);
            return null;
        }
        return requests[(int)(index % requests.Count)];
    }
}
