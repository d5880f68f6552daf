namespace Tank.Tools;

/// <summary>
/// One architecture of the service's catalogue (<c>GET /storages</c>), as far as the tools need it:
/// its name, the other names its queue routes accept (the original study's spellings) and what it
/// serves (<c>Author</c>, <c>Item</c>, <c>Queue</c>, <c>KeyValue</c>).
/// </summary>
public sealed record CatalogueEntry(string Name, IReadOnlyList<string> Aliases, IReadOnlyList<string> Serves)
{
    public bool ServesQueue => Serves.Contains("Queue");

    public bool ServesItems => Serves.Contains("Item");

    /// <summary>The name the original study used for it: its first alias, else its name.</summary>
    public string StudyName => Aliases.Count > 0 ? Aliases[0] : Name;
}
