namespace Crash;

/// <summary>
/// The location set of item write number <c>seq</c>: 1 to 5 consecutive ids of one of the disjoint
/// blocks of five in 1..locations (20 000 blocks in the default 1..100 000). A per-run salt shifts
/// the block (so runs start at different sets; they are drawn from the same pool, so a set can
/// repeat an earlier run's) and the size steps once per pass over the blocks, so the first
/// <c>blocks × 5</c> writes of a run all send different sets, whatever the number of blocks.
/// </summary>
public static class ItemLocations
{
    public const long Blocks = 20_000;
    public const int BlockSize = 5;
    public const long UniqueSets = Blocks * BlockSize;

    /// <param name="seq">The write's sequence number (0-based).</param>
    /// <param name="salt">The run's salt, any value in 0..blocks-1.</param>
    /// <param name="blocks">How many blocks of five the location ids span (locations ÷ 5).</param>
    public static long[] For(long seq, long salt, long blocks = Blocks)
    {
        var block = (seq + salt) % blocks;
        var pass = seq / blocks;
        // For one block, the size steps with the pass, so the same block never repeats a size
        // within five passes whatever the number of blocks; across blocks the sizes vary too.
        var count = 1 + (int)((block + pass) % BlockSize);
        var ids = new long[count];
        for (var i = 0; i < count; i++) ids[i] = block * BlockSize + 1 + i;
        return ids;
    }

    /// <summary>A set as the verifier compares it: distinct ids ascending, comma-separated; "" when empty.</summary>
    public static string Canonical(IEnumerable<long> ids) => string.Join(",", ids.Distinct().Order());
}
