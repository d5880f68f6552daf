namespace Lab.Metrics;

/// <summary>One line of Prometheus's text exposition format: a series and its value.</summary>
public sealed record PrometheusSample(string Name, IReadOnlyDictionary<string, string> Labels, double Value)
{
    public string Label(string name) => Labels.TryGetValue(name, out var value) ? value : "";
}
