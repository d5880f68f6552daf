namespace Lab.Bench;

/// <summary>
/// The order of one round of repetitions (repetition k of every cell): a Fisher–Yates shuffle seeded
/// by the profile's shuffle_seed and the round, so that no cell always runs first, last or after the
/// same neighbour (randomized multiple interleaved trials), and a rerun with the same seed runs the
/// same order. Round 1 too: the preparations ran in catalogue order.
/// </summary>
public static class RoundOrder
{
    public static IReadOnlyList<T> Of<T>(IReadOnlyList<T> cells, int seed, int round)
    {
        var order = cells.ToList();
        var random = new Random(unchecked(seed * 7919 + round));
        for (var i = order.Count - 1; i > 0; i--)
        {
            var j = random.Next(i + 1);
            (order[i], order[j]) = (order[j], order[i]);
        }
        return order;
    }
}
