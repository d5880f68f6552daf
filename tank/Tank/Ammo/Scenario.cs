using IntegrationService.Http;
using Harness.CommandLine;

namespace Tank.Ammo;

/// <summary>The load scenarios; the name doubles as the phout tag.</summary>
public enum Scenario { AuthorWrite, AuthorRead, AuthorMixed, ItemRead, ItemWrite, QueueWrite, QueueRead, QueueMixed, KvPut, KvGet }

public static class Scenarios
{
    public static readonly string[] Names =
        ["author-write", "author-read", "author-mixed", "item-read", "item-write", "queue-write", "queue-read", "queue-mixed", "kv-put", "kv-get"];

    public static Scenario Parse(string text) => Array.IndexOf(Names, text) is var i and >= 0
        ? (Scenario)i
        : throw new InputException($"unknown scenario '{text}' (expected {string.Join(", ", Names)})");

    public static string Name(this Scenario scenario) => Names[(int)scenario];

    /// <summary>The API it exercises, by the catalogue's name for it (an architecture's <c>serves</c>).</summary>
    public static string Api(this Scenario scenario) => scenario switch
    {
        Scenario.AuthorWrite or Scenario.AuthorRead or Scenario.AuthorMixed => StorageApi.Author,
        Scenario.ItemRead or Scenario.ItemWrite => StorageApi.Item,
        Scenario.QueueWrite or Scenario.QueueRead or Scenario.QueueMixed => StorageApi.Queue,
        _ => StorageApi.KeyValue,
    };

    /// <summary>Writes only: a save, a location set, a queue write, a key-value put.</summary>
    public static bool IsWrite(this Scenario scenario) =>
        scenario is Scenario.AuthorWrite or Scenario.ItemWrite or Scenario.QueueWrite or Scenario.KvPut;

    /// <summary>A blend of the API's read and write (author-mixed, queue-mixed).</summary>
    public static bool IsMixed(this Scenario scenario) => scenario is Scenario.AuthorMixed or Scenario.QueueMixed;

    /// <summary>
    /// uri holds only GETs and uripost only POSTs, so the author and item mixed scenarios are
    /// phantom-only. Every queue scenario is GETs alone (the service makes up the message of a
    /// bodiless write, as the original siege study did), so uri holds all three. kv-put sends PUTs,
    /// which only phantom ammo holds; kv-get is GETs.
    /// </summary>
    public static bool Allows(this Scenario scenario, AmmoFormat format) => format switch
    {
        AmmoFormat.Uri => scenario is Scenario.AuthorRead or Scenario.ItemRead or Scenario.QueueWrite or Scenario.QueueRead or Scenario.QueueMixed or Scenario.KvGet,
        AmmoFormat.UriPost => scenario is Scenario.AuthorWrite or Scenario.ItemWrite,
        _ => true,
    };
}
