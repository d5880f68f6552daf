using IntegrationService.Authors;
using IntegrationService.Items;
using IntegrationService.Kv;
using IntegrationService.Queues;
using IntegrationService.Storage.Limits;
using Microsoft.Extensions.Options;

namespace IntegrationService.Storage;

/// <summary>
/// Resolves the <c>storage</c> query parameter to the stores of one architecture. The stores it
/// hands out are behind their backends' concurrency limits (<see cref="BackendLimiter"/>).
/// </summary>
public sealed class StorageRegistry
{
    private readonly Dictionary<string, (string Name, IAuthorStore? Authors, IItemStore? Items)> _byName;
    private readonly Dictionary<string, (string Name, IQueueStore Store)> _queues;
    private readonly Dictionary<string, IKvStore> _kv;

    public StorageRegistry(IEnumerable<StorageArchitecture> architectures, IOptions<StorageOptions> options, IOptions<KvOptions> kv, BackendLimiter limiter)
    {
        All = architectures.OrderBy(a => a.Name, StringComparer.Ordinal).ToArray();
        BackendPermits Permits(StorageArchitecture a) => new(
            a.Backends.Order(StringComparer.Ordinal).Select(b => (b, limiter.For(b))).ToArray(), limiter);
        _byName = All.ToDictionary(a => a.Name, a =>
        {
            var permits = Permits(a);
            return (a.Name, a.Authors is null ? null : (IAuthorStore)new LimitedAuthorStore(a.Authors, permits),
                    a.Items is null ? null : (IItemStore)new LimitedItemStore(a.Items, permits));
        }, StringComparer.OrdinalIgnoreCase);
        _queues = new(StringComparer.OrdinalIgnoreCase);
        foreach (var a in All.Where(a => a.Queue is not null))
        {
            _queues[a.Name] = (a.Name, new LimitedQueueStore(a.Queue!, Permits(a)));
        }
        foreach (var a in All.Where(a => a.Queue is not null))
        {
            foreach (var alias in a.Aliases) _queues[alias] = _queues[a.Name];
        }
        QueueStorageNames = All.Where(a => a.Queue is not null).Select(a => a.Name).ToArray();
        _kv = All.Where(a => a.Kv is not null)
            .ToDictionary(a => a.Name, IKvStore (a) => new LimitedKvStore(a.Kv!, Permits(a)), StringComparer.OrdinalIgnoreCase);
        KvStorageNames = All.Where(a => a.Kv is not null).Select(a => a.Name).ToArray();
        KvDefaultName = kv.Value.Default;
        DefaultName = options.Value.Default;
        AuthorStorageNames = All.Where(a => a.Authors is not null).Select(a => a.Name).ToArray();
        ItemStorageNames = All.Where(a => a.Items is not null).Select(a => a.Name).ToArray();
        // A default that names no architecture would turn every request without ?storage= into a
        // 400; refuse it at start instead, naming the setting.
        if (_byName.Count > 0 && !_byName.ContainsKey(DefaultName))
            throw new OptionsValidationException("Storage", typeof(StorageOptions),
                [$"Storage:Default '{DefaultName}' is not a storage architecture (known: {string.Join(", ", _byName.Keys.Order(StringComparer.Ordinal))})"]);
        if (_kv.Count > 0 && !_kv.ContainsKey(KvDefaultName))
            throw new OptionsValidationException("Kv", typeof(KvOptions),
                [$"Kv:Default '{KvDefaultName}' is not a key-value architecture (known: {string.Join(", ", KvStorageNames)})"]);
    }

    /// <summary>The architectures as registered (their stores without the limits).</summary>
    public IReadOnlyList<StorageArchitecture> All { get; }

    public string DefaultName { get; }

    public IReadOnlyList<string> AuthorStorageNames { get; }

    public IReadOnlyList<string> ItemStorageNames { get; }

    public IReadOnlyList<string> QueueStorageNames { get; }

    public IReadOnlyList<string> KvStorageNames { get; }

    /// <summary>The key-value architecture used without <c>?storage=</c> (<c>Kv:Default</c>).</summary>
    public string KvDefaultName { get; }

    /// <summary>
    /// The canonical name of the architecture a <c>?storage=</c> value selects (the default when it is
    /// absent or empty), whatever the entity; null for a name that is not an architecture's.
    /// </summary>
    public string? CanonicalName(string? name) =>
        _byName.TryGetValue(string.IsNullOrEmpty(name) ? DefaultName : name, out var stores) ? stores.Name : null;

    /// <summary>The canonical name of the queue a route names (an architecture name or an alias); null for none.</summary>
    public string? CanonicalQueueName(string? name) =>
        name is not null && _queues.TryGetValue(name, out var queue) ? queue.Name : null;

    /// <summary>The queue named by a route (an architecture name or an alias), and its canonical name.</summary>
    public (string Name, IQueueStore Store) Queue(string? name) =>
        name is not null && _queues.TryGetValue(name, out var queue)
            ? queue
            : throw new UnknownStorageException(name, "Queue", QueueStorageNames, "queue");

    /// <summary>The key-value store of <c>?storage=</c> (<see cref="KvDefaultName"/> when absent or empty).</summary>
    public IKvStore Kv(string? name) =>
        _kv.GetValueOrDefault(string.IsNullOrEmpty(name) ? KvDefaultName : name)
            ?? throw new UnknownStorageException(name, "the key-value API", KvStorageNames);

    public IAuthorStore Authors(string? name) =>
        Find(name).Authors ?? throw new UnknownStorageException(name, "Author", AuthorStorageNames);

    public IItemStore Items(string? name) =>
        Find(name).Items ?? throw new UnknownStorageException(name, "Item", ItemStorageNames);

    private (string Name, IAuthorStore? Authors, IItemStore? Items) Find(string? name) =>
        _byName.GetValueOrDefault(string.IsNullOrEmpty(name) ? DefaultName : name);
}
