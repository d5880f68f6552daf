using Harness.Catalogue;
using Harness.CommandLine;
using IntegrationService.Http;

namespace Lab.Tools;

/// <summary>
/// The queues of the siege matrix, from the catalogue: every architecture that serves a queue,
/// under the name the original study used for it (its alias, such as <c>redis_aof</c>, where it
/// has one), in the catalogue's order.
/// </summary>
public static class SiegeMatrix
{
    public static IReadOnlyList<string> Queues(IReadOnlyList<StorageDescription> catalogue, IReadOnlyList<string>? selected)
    {
        var queues = catalogue.Where(e => e.Serve(StorageApi.Queue)).ToArray();
        if (selected is null) return queues.Select(e => e.StudyName()).ToArray();
        // A selection is taken as spelled (a name or an alias): the queue routes accept both.
        var known = queues.SelectMany(e => e.Aliases.Prepend(e.Name)).ToHashSet(StringComparer.OrdinalIgnoreCase);
        foreach (var queue in selected.Where(q => !known.Contains(q)))
            throw new InputException($"--queue: '{queue}' is not a queue of this service (known: {string.Join(", ", queues.Select(e => e.StudyName()))})");
        return selected;
    }
}
