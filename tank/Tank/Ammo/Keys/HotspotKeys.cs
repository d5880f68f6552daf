using Harness.CommandLine;
using IntegrationService.Seeding;

namespace Tank.Ammo.Keys;

/// <summary>
/// YCSB's hotspot: the first <c>fraction</c> of the keys are hot and get <c>ops</c> of the
/// requests, uniformly among them; the rest go uniformly to the other keys.
/// </summary>
public sealed class HotspotKeys : KeyChooser
{
    private readonly double _fraction;
    private readonly double _ops;

    public HotspotKeys(double fraction, double ops)
    {
        if (!(fraction > 0 && fraction <= 1)) throw new InputException($"--hotspot-fraction: {fraction} must lie in (0, 1]");
        if (!(ops >= 0 && ops <= 1)) throw new InputException($"--hotspot-ops: {ops} must lie in [0, 1]");
        _fraction = fraction;
        _ops = ops;
    }

    public override long Next(SplitMix64 random, long count)
    {
        var hot = Math.Clamp((long)(count * _fraction), 1, count);
        if (hot == count || random.Chance(_ops)) return random.Range(0, hot - 1);
        return random.Range(hot, count - 1);
    }
}
