using IntegrationService.Authors;
using IntegrationService.Items;

namespace IntegrationService.Storage;

/// <summary>
/// One selectable storage architecture (<c>?storage=name</c>): the stores it serves and the
/// durability it offers, stated so benchmark readers can compare like with like.
/// </summary>
public sealed record StorageArchitecture(
    string Name,
    string Description,
    string Durability,
    IAuthorStore? Authors,
    IItemStore? Items);
