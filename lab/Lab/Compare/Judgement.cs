namespace Lab.Compare;

public enum Judgement
{
    /// <summary>Within the threshold, or the runs' spreads within the threshold of each other.</summary>
    NoDifference,
    Better,
    Worse,
    /// <summary>The intervals do not separate and a run's repetitions spread too much to tell: never "no difference".</summary>
    Unstable,
    /// <summary>One of the reports lacks the figure.</summary>
    NotMeasured,
}
