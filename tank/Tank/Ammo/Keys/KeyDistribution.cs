using Harness.CommandLine;

namespace Tank.Ammo.Keys;

/// <summary>How a keyed scenario picks its keys (author ids, item ids, kv keys), as YCSB's <c>requestdistribution</c>.</summary>
public enum KeyDistribution { Uniform, Zipfian, Latest, Hotspot }

public static class KeyDistributions
{
    public static readonly string[] Names = ["uniform", "zipfian", "latest", "hotspot"];

    public static KeyDistribution Parse(string text) => Array.IndexOf(Names, text) is var i and >= 0
        ? (KeyDistribution)i
        : throw new InputException($"unknown distribution '{text}' (expected {string.Join(", ", Names)})");

    public static string Name(this KeyDistribution distribution) => Names[(int)distribution];
}
