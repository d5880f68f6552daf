using System.Text;
using Tank.Stats;

namespace Lab.Report;

/// <summary>
/// Splits a run by phout tag, so a YCSB workload's reads and updates are seen apart. Tags are
/// compared as bytes and decoded once each: a run has millions of lines and a handful of tags.
/// </summary>
public sealed class OperationSplit
{
    private readonly List<(byte[] Tag, LatencyHistogram Latency, long[] Errors)> _tags = [];
    private int _last = -1;

    public void Record(ReadOnlySpan<byte> tag, long intervalUs, bool error)
    {
        if (_last < 0 || !tag.SequenceEqual(_tags[_last].Tag))
        {
            _last = -1;
            for (var i = 0; i < _tags.Count && _last < 0; i++)
                if (tag.SequenceEqual(_tags[i].Tag)) _last = i;
            if (_last < 0)
            {
                _tags.Add((tag.ToArray(), new LatencyHistogram(), new long[1]));
                _last = _tags.Count - 1;
            }
        }
        var (_, latency, errors) = _tags[_last];
        latency.Record(intervalUs);
        if (error) errors[0]++;
    }

    /// <summary>Per tag in order of first appearance; empty when the run had one tag (the scenario's) or none.</summary>
    public IReadOnlyList<OperationStats> Results() => _tags.Count < 2 ? [] : _tags.Select(t => new OperationStats(
        Encoding.UTF8.GetString(t.Tag), t.Latency.Count, t.Errors[0], t.Latency.Mean / 1000, t.Latency.Percentile(50) / 1000.0, t.Latency.Percentile(99) / 1000.0)).ToList();
}
