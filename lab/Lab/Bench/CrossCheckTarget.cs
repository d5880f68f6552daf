using Harness.Catalogue;
using Tank.Ammo;
using IntegrationService.Http;

namespace Lab.Bench;

/// <summary>
/// The endpoint the wrk cross-check drives on an architecture, chosen by what it serves: an
/// author read where it keeps authors, else an item read (its links) where it keeps items.
/// <see cref="Template"/> is tank/wrk/ids.lua's path with <c>{id}</c> for the id.
/// </summary>
public sealed record CrossCheckTarget(string Storage, Scenario Scenario, string Template)
{
    public bool NeedsAuthors => Scenario == Scenario.AuthorRead;

    public static CrossCheckTarget? For(StorageDescription entry) =>
        entry.Serve(StorageApi.Author) ? new(entry.Name, Scenario.AuthorRead, $"/Author/Get?id={{id}}&storage={entry.Name}")
        : entry.Serve(StorageApi.Item) ? new(entry.Name, Scenario.ItemRead, $"/item/{{id}}/locations?storage={entry.Name}")
        : null;
}
