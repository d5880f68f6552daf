using IntegrationService.Authors;
using IntegrationService.Items;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage;

/// <summary>Resolves the <c>storage</c> query parameter to the stores of one architecture.</summary>
public sealed class StorageRegistry
{
    private readonly Dictionary<string, StorageArchitecture> _byName;

    public StorageRegistry(IEnumerable<StorageArchitecture> architectures, IOptions<StorageOptions> options)
    {
        All = architectures.OrderBy(a => a.Name, StringComparer.Ordinal).ToArray();
        _byName = All.ToDictionary(a => a.Name, StringComparer.OrdinalIgnoreCase);
        DefaultName = options.Value.Default;
        AuthorStorageNames = All.Where(a => a.Authors is not null).Select(a => a.Name).ToArray();
        ItemStorageNames = All.Where(a => a.Items is not null).Select(a => a.Name).ToArray();
    }

    public IReadOnlyList<StorageArchitecture> All { get; }

    public string DefaultName { get; }

    public IReadOnlyList<string> AuthorStorageNames { get; }

    public IReadOnlyList<string> ItemStorageNames { get; }

    public IAuthorStore Authors(string? name) =>
        Find(name)?.Authors ?? throw new UnknownStorageException(name, "Author", AuthorStorageNames);

    public IItemStore Items(string? name) =>
        Find(name)?.Items ?? throw new UnknownStorageException(name, "Item", ItemStorageNames);

    private StorageArchitecture? Find(string? name) =>
        _byName.GetValueOrDefault(string.IsNullOrEmpty(name) ? DefaultName : name);
}
