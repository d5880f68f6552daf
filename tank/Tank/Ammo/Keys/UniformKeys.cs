using IntegrationService.Seeding;

namespace Tank.Ammo.Keys;

/// <summary>Every key equally likely: one draw of <see cref="SplitMix64.Range"/>, the draw the generator always made, so uniform ammo is unchanged byte for byte.</summary>
public sealed class UniformKeys : KeyChooser
{
    public override long Next(SplitMix64 random, long count) => random.Range(0, count - 1);
}
