using Crash.Check;
using Tank.Runner;

namespace Crash.Queue;

/// <summary>
/// The total-queue ledger of a run, from the producers' log (every write and how it ended) and the
/// consumers' (every delivery of this run's messages, the drain included). Pure.
/// </summary>
/// <param name="Acked">Writes acknowledged (201).</param>
/// <param name="Delivered">Distinct messages of this run delivered.</param>
/// <param name="Deliveries">Deliveries of this run's messages, repeats included.</param>
/// <param name="Lost">Acknowledged, never delivered, and not on the queue after recovery (the drain did not find it).</param>
/// <param name="Duplicated">Messages delivered more than once.</param>
/// <param name="Unexpected">Delivered, yet never sent or refused (4xx): what no write explains.</param>
/// <param name="InDoubtWrites">Writes whose answer was lost (timeout, connection error, 5xx): they may have been enqueued.</param>
/// <param name="InDoubtWritesDelivered">Of <see cref="InDoubtWrites"/>: delivered after all (legitimate, not unexpected).</param>
/// <param name="ReadsInDoubt">Reads whose answer was lost: each may have taken a message off the queue.</param>
/// <param name="Foreign">Messages read that were not this run's (other runs', the tests').</param>
public sealed record QueueLedger(
    long Acked,
    long Delivered,
    long Deliveries,
    long Lost,
    long Duplicated,
    long Unexpected,
    long InDoubtWrites,
    long InDoubtWritesDelivered,
    long ReadsInDoubt,
    long Foreign,
    IReadOnlyList<long> LostExamples,
    IReadOnlyList<long> DuplicatedExamples)
{
    /// <summary>Everything whose outcome is unknown: writes and reads in doubt.</summary>
    public long InDoubt => InDoubtWrites + ReadsInDoubt;

    /// <param name="writes">Every write sent: its sequence number and outcome.</param>
    /// <param name="deliveries">The sequence numbers of this run's messages, as read (repeats included).</param>
    public static QueueLedger Of(IEnumerable<(long Seq, WriteOutcome Outcome)> writes, IEnumerable<long> deliveries, long readsInDoubt, long foreign,
        int examples = RunResult.ExamplesPerClass)
    {
        var outcomes = new Dictionary<long, WriteOutcome>();
        foreach (var (seq, outcome) in writes) outcomes[seq] = outcome;
        var counts = new SortedDictionary<long, long>();
        foreach (var seq in deliveries) counts[seq] = counts.GetValueOrDefault(seq) + 1;

        var acked = outcomes.Where(o => o.Value == WriteOutcome.Acked).Select(o => o.Key).Order().ToList();
        var lost = acked.Where(seq => !counts.ContainsKey(seq)).ToList();
        var duplicated = counts.Where(c => c.Value > 1).Select(c => c.Key).ToList();
        bool Was(long seq, WriteOutcome outcome) => outcomes.TryGetValue(seq, out var o) && o == outcome;
        return new QueueLedger(
            Acked: acked.Count,
            Delivered: counts.Count,
            Deliveries: counts.Values.Sum(),
            Lost: lost.Count,
            Duplicated: duplicated.Count,
            Unexpected: counts.Keys.Count(seq => !outcomes.ContainsKey(seq) || Was(seq, WriteOutcome.Failed)),
            InDoubtWrites: outcomes.Count(o => o.Value == WriteOutcome.InDoubt),
            InDoubtWritesDelivered: counts.Keys.Count(seq => Was(seq, WriteOutcome.InDoubt)),
            ReadsInDoubt: readsInDoubt,
            Foreign: foreign,
            LostExamples: lost.Take(examples).ToList(),
            DuplicatedExamples: duplicated.Take(examples).ToList());
    }

    /// <summary>
    /// For each message delivered more than once, when the read that first took it was sent (on the run's clock), in
    /// order: a duplicate is explained by a failover only if that first delivery could have been confirmed by a leader
    /// about to lose its place.
    /// </summary>
    public static IReadOnlyList<double> FirstReadsOfDuplicates(IEnumerable<(long Seq, double ReadSentS)> deliveries) =>
        [.. deliveries.GroupBy(d => d.Seq).Where(g => g.Count() > 1).Select(g => g.Min(d => d.ReadSentS)).Order()];

    /// <summary>
    /// The ages at the fault (<see cref="AckAges"/>) of each lost message, and of the oldest acknowledged
    /// message still on the queue when the fault struck: one no read sent before the fault had taken.
    /// A message read before the fault was no longer the store's to keep, so a queue its consumers had
    /// emptied of old messages holds none older than a window, whatever was written.
    /// </summary>
    /// <param name="acked">Every acknowledged write: its sequence number and when its acknowledgement came.</param>
    /// <param name="deliveries">This run's messages as read, each with when its read was sent.</param>
    public static AckAges Ages(IEnumerable<(long Seq, double AckedS)> acked, IEnumerable<(long Seq, double ReadSentS)> deliveries, double faultS)
    {
        var firstRead = new Dictionary<long, double>();
        foreach (var (seq, sentS) in deliveries) firstRead[seq] = Math.Min(sentS, firstRead.GetValueOrDefault(seq, double.MaxValue));
        var writes = acked.ToList();
        return AckAges.At(faultS,
            writes.Where(w => !(firstRead.TryGetValue(w.Seq, out var readS) && readS < faultS)).Select(w => w.AckedS),
            writes.Where(w => !firstRead.ContainsKey(w.Seq)).Select(w => w.AckedS));
    }
}
