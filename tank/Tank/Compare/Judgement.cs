namespace Tank.Compare;

public enum Judgement
{
    /// <summary>Within the threshold, or inside the runs' spread.</summary>
    NoDifference,
    Better,
    Worse,
    /// <summary>One of the reports lacks the figure.</summary>
    NotMeasured,
}
