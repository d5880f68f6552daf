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
