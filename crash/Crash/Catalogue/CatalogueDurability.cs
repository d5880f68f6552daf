namespace Crash.Catalogue;

/// <summary>The stated durability as data: what a process crash and a power loss may cost (see <see cref="Loss"/>).</summary>
public sealed record CatalogueDurability
{
    public string Fsync { get; init; } = "";
    public int? FsyncIntervalMs { get; init; }
    public string ProcessCrash { get; init; } = Loss.Anything;
    public string PowerLoss { get; init; } = Loss.Anything;
    public int? LossWindowMs { get; init; }
    public string Text { get; init; } = "";
}
