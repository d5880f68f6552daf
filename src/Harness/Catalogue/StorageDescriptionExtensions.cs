using IntegrationService.Http;

namespace Harness.Catalogue;

/// <summary>The questions the tools ask of one architecture of the catalogue.</summary>
public static class StorageDescriptionExtensions
{
    /// <summary>Whether it serves an API: <c>Author</c>, <c>Item</c>, <c>Queue</c> or <c>KeyValue</c>.</summary>
    public static bool Serve(this StorageDescription entry, string api) => entry.Serves.Contains(api, StringComparer.Ordinal);

    /// <summary>Whether <paramref name="name"/> is its name or one of its aliases (case-insensitive, as the service matches).</summary>
    public static bool IsCalled(this StorageDescription entry, string name) =>
        string.Equals(entry.Name, name, StringComparison.OrdinalIgnoreCase) || entry.Aliases.Contains(name, StringComparer.OrdinalIgnoreCase);

    /// <summary>The name the original study used for it: its first alias, else its name.</summary>
    public static string StudyName(this StorageDescription entry) => entry.Aliases.Length > 0 ? entry.Aliases[0] : entry.Name;

    /// <summary>What a kill -9 and a power loss lose and the loss window, as one key ("nothing/window/1000"; a kill's own window after it: "window/window/120000/1000").</summary>
    public static string DurabilityClass(this StorageDescription entry) =>
        $"{entry.Durability.ProcessCrash}/{entry.Durability.PowerLoss}/{entry.Durability.LossWindowMs}" +
        (entry.Durability.ProcessCrashWindowMs is { } kill ? $"/{kill}" : "");

    /// <summary>The window of a kill -9's <c>window</c> or <c>since-snapshot</c> promise, in ms: processCrashWindowMs, else lossWindowMs.</summary>
    public static int? ProcessCrashWindowMs(this StorageDescription entry) =>
        entry.Durability.ProcessCrashWindowMs ?? entry.Durability.LossWindowMs;
}
