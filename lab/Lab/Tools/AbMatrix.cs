using Harness.Catalogue;
using Harness.CommandLine;
using IntegrationService.Http;

namespace Lab.Tools;

/// <summary>The architectures of the ab table, from the catalogue: every one that serves items, in the catalogue's order.</summary>
public static class AbMatrix
{
    public static IReadOnlyList<string> Storages(IReadOnlyList<StorageDescription> catalogue, IReadOnlyList<string>? selected)
    {
        var items = catalogue.Where(e => e.Serve(StorageApi.Item)).Select(e => e.Name).ToArray();
        if (selected is null) return items;
        foreach (var storage in selected.Where(s => !items.Contains(s, StringComparer.OrdinalIgnoreCase)))
            throw new InputException($"--storage: '{storage}' serves no items on this service (known: {string.Join(", ", items)})");
        return selected;
    }
}
