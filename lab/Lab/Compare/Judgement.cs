namespace Lab.Compare;

public enum Judgement
{
    /// <summary>Within the threshold, or the runs' spreads within the threshold of each other.</summary>
    NoDifference,
    Better,
    Worse,
    /// <summary>One of the reports lacks the figure.</summary>
    NotMeasured,
}
