namespace Tank.Tools;

/// <summary>The architectures of the ab table, from the catalogue: every one that serves items, in the catalogue's order.</summary>
public static class AbMatrix
{
    public static IReadOnlyList<string> Storages(IReadOnlyList<CatalogueEntry> catalogue, IReadOnlyList<string>? selected)
    {
        var items = catalogue.Where(e => e.ServesItems).Select(e => e.Name).ToArray();
        if (selected is null) return items;
        foreach (var storage in selected.Where(s => !items.Contains(s, StringComparer.OrdinalIgnoreCase)))
            throw new TankInputException($"--storage: '{storage}' serves no items on this service (known: {string.Join(", ", items)})");
        return selected;
    }
}
