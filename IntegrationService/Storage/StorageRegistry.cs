using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Storage.Limits;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage;

/// <summary>
/// Resolves the <c>storage</c> query parameter to the stores of one architecture. The stores it
/// hands out are behind their backends' concurrency limits (<see cref="BackendLimiter"/>).
/// </summary>
public sealed class StorageRegistry
{
    private readonly Dictionary<string, (IAuthorStore? Authors, IItemStore? Items)> _byName;

    public StorageRegistry(IEnumerable<StorageArchitecture> architectures, IOptions<StorageOptions> options, BackendLimiter limiter)
    {
        All = architectures.OrderBy(a => a.Name, StringComparer.Ordinal).ToArray();
        _byName = All.ToDictionary(a => a.Name, a =>
        {
            var permits = new BackendPermits(
                a.Backends.Order(StringComparer.Ordinal).Select(b => (b, limiter.For(b))).ToArray(), limiter.Limit);
            return (a.Authors is null ? null : (IAuthorStore)new LimitedAuthorStore(a.Authors, permits),
                    a.Items is null ? null : (IItemStore)new LimitedItemStore(a.Items, permits));
        }, StringComparer.OrdinalIgnoreCase);
        DefaultName = options.Value.Default;
        AuthorStorageNames = All.Where(a => a.Authors is not null).Select(a => a.Name).ToArray();
        ItemStorageNames = All.Where(a => a.Items is not null).Select(a => a.Name).ToArray();
    }

    /// <summary>The architectures as registered (their stores without the limits).</summary>
    public IReadOnlyList<StorageArchitecture> All { get; }

    public string DefaultName { get; }

    public IReadOnlyList<string> AuthorStorageNames { get; }

    public IReadOnlyList<string> ItemStorageNames { get; }

    public IAuthorStore Authors(string? name) =>
        Find(name).Authors ?? throw new UnknownStorageException(name, "Author", AuthorStorageNames);

    public IItemStore Items(string? name) =>
        Find(name).Items ?? throw new UnknownStorageException(name, "Item", ItemStorageNames);

    private (IAuthorStore? Authors, IItemStore? Items) Find(string? name) =>
        _byName.GetValueOrDefault(string.IsNullOrEmpty(name) ? DefaultName : name);
}
