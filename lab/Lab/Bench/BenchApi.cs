using Harness.CommandLine;
using IntegrationService.Authors;

namespace Lab.Bench;

/// <summary>
/// Which API of the service a scenario exercises, by the catalogue's names for them (an
/// architecture's <c>serves</c>): author-* → Author, item-* → Item, queue-* → Queue, kv-* → KeyValue.
/// </summary>
public static class BenchApi
{
    public const string Author = "Author";
    public const string Item = "Item";
    public const string Queue = "Queue";
    public const string KeyValue = "KeyValue";

    public static string Of(string scenario) => scenario.Split('-')[0] switch
    {
        "author" => Author,
        "item" => Item,
        "queue" => Queue,
        "kv" => KeyValue,
        _ => throw new InputException($"scenario '{scenario}' names no API (author-*, item-*, queue-*, kv-*)"),
    };
}
