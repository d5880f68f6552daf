using Tank.Ammo;

namespace Lab.Compare;

/// <summary>One architecture × scenario in both reports (or in one only).</summary>
public sealed record CellComparison(string Storage, string Scenario, CellFigures? Base, CellFigures? New, IReadOnlyList<MetricChange> Changes)
{
    public string Key => $"{Storage} · {Scenario}";

    public bool Regressed => Changes.Any(c => c.Judgement == Judgement.Worse);

    public bool Improved => Changes.Any(c => c.Judgement == Judgement.Better);
}
