using Harness.Catalogue;
using Tank.Ammo;
using IntegrationService.Http;

namespace Lab.Bench;

/// <summary>
/// The endpoint the wrk cross-check drives on an architecture, chosen by what it serves: an
/// author read where it keeps authors, else an item read (its links) where it keeps items.
/// <see cref="Template"/> is tank/wrk/ids.lua's path with <c>{id}</c> for the id.
/// </summary>
public sealed record CrossCheckTarget(string Storage, string Scenario, string Template)
{
    public bool NeedsAuthors => Scenario == "author-read";

    public static CrossCheckTarget? For(StorageDescription entry) =>
        entry.Serve(BenchApi.Author) ? new(entry.Name, "author-read", $"/Author/Get?id={{id}}&storage={entry.Name}")
        : entry.Serve(BenchApi.Item) ? new(entry.Name, "item-read", $"/item/{{id}}/locations?storage={entry.Name}")
        : null;
}
